/** `exchange_delivered_order_items.payment_method_in_profile`: payment_method_id must be one of the payment methods in the authenticated user's profile (get_user_details(user_id).payment_methods). */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

const authenticationLookups: readonly string[] = ['find_user_id_by_email', 'find_user_id_by_name_zip'];

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  // The authenticated user: the user id returned by the latest successful authentication lookup.
  let userId: string | undefined;
  for (const past of context.conversation.toolCalls()) {
    if (!authenticationLookups.includes(past.call.name)) continue;
    const result = past.result?.trim();
    if (result === undefined || result === '' || result.startsWith('Error')) continue;
    userId = result;
  }
  if (userId === undefined) {
    return {
      message:
        `Payment method ${args.payment_method_id} cannot be matched to the user's profile: no user has been ` +
        `authenticated in this conversation. Locate the user id with find_user_id_by_email or find_user_id_by_name_zip first.`,
      facts: { payment_method_id: args.payment_method_id, authenticated_user_id: null },
    };
  }

  const user = await lookup(context, 'get_user_details', { user_id: userId });
  const methods = Object.entries(user.payment_methods);
  const inProfile = methods.some(
    ([key, method]) => key === args.payment_method_id || method?.id === args.payment_method_id,
  );
  if (inProfile) return undefined;

  const profileMethods = methods.map(([key, method]) => method?.id ?? key);
  return {
    message:
      `Payment method ${args.payment_method_id} is not in the profile of user ${userId}, whose payment methods are ` +
      `${profileMethods.length === 0 ? 'none' : profileMethods.join(', ')}. Ask the user to choose one of these, then call again.`,
    facts: {
      payment_method_id: args.payment_method_id,
      user_id: userId,
      profile_payment_methods: profileMethods,
    },
  };
};
