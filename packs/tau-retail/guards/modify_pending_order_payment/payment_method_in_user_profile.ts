/** `modify_pending_order_payment.payment_method_in_user_profile`: payment_method_id must be one of the payment methods in the authenticated user's profile (get_user_details(user_id).payment_methods), i.e. a gift card, a paypal account or a credit card of that user. */
import type { PastToolCall, PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderPaymentArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

const authenticationTools: readonly string[] = ['find_user_id_by_email', 'find_user_id_by_name_zip'];

/** The user id an authentication lookup returned, or undefined when it failed or returned nothing. */
function authenticatedId(past: PastToolCall): string | undefined {
  if (!authenticationTools.includes(past.call.name) || past.result === undefined) return undefined;
  let id = past.result.trim();
  if (id.length >= 2 && id.startsWith('"') && id.endsWith('"')) id = id.slice(1, -1).trim();
  return id === '' || id.startsWith('Error') ? undefined : id;
}

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = async (args, context) => {
  let userId: string | undefined;
  for (const past of context.conversation.toolCalls()) {
    userId = authenticatedId(past);
    if (userId !== undefined) break;
  }
  if (userId === undefined) {
    return {
      message: `no user was authenticated in this conversation, so payment method ${args.payment_method_id} cannot be shown to be in the user's profile`,
      facts: { order_id: args.order_id, payment_method_id: args.payment_method_id },
    };
  }
  const user = await lookup(context, 'get_user_details', { user_id: userId });
  const methods = Object.values(user.payment_methods).filter((method) => method !== undefined);
  if (methods.some((method) => method.id === args.payment_method_id)) return undefined;
  return {
    message: `payment method ${args.payment_method_id} is not in the profile of user ${userId}, whose payment methods are ${methods.map((method) => method.id).join(', ') || 'none'}; use one of the user's own payment methods`,
    facts: {
      order_id: args.order_id,
      payment_method_id: args.payment_method_id,
      user_id: userId,
      profilePaymentMethods: methods.map((method) => method.id),
    },
  };
};
