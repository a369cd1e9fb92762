/** `modify_pending_order_payment.payment_method_chosen_by_user`: The new payment_method_id must be the payment method the user themselves chose in the conversation (named by the user, or picked by the user from the methods the agent read from their profile); the agent must not pick, guess or invent a payment method on the user's behalf. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderPaymentArgs } from '../../types.ts';
import { decide } from '../lib/dialogue.ts';
import { lookup } from '../lib/domain.ts';
import { domain } from '../lib/domain-description.ts';
import { chosenAmongOthers } from '../lib/payment.ts';

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const user = await lookup(context, 'get_user_details', { user_id: order.user_id });
  const records = Object.values(user.payment_methods).filter((method) => method !== undefined);
  const original = order.payment_history.find((entry) => entry.transaction_type === 'payment')?.payment_method_id;
  const fact = context.conversation.stated(
    {
      value: args.payment_method_id,
      kind: 'payment_method',
      records,
      ...(original === undefined ? {} : { roles: { original } }),
    },
    domain,
  );
  if (fact.answer === 'yes') return undefined;
  // Their words named this method among others (one per request) and they said yes to the listing of this call.
  const method = records.find((record) => record.id === args.payment_method_id);
  if (
    method !== undefined &&
    chosenAmongOthers(context, 'modify_pending_order_payment', args.order_id, method, original)
  )
    return undefined;
  const finding = decide(fact, {
    need: `the user must choose the new payment method of order ${args.order_id} themselves; the call uses ${args.payment_method_id}, which the user did not choose`,
    question: `Did the user choose ${args.payment_method_id} as the new payment method of order ${args.order_id}?`,
  });
  if (finding === undefined) return undefined;
  return {
    ...finding,
    facts: {
      ...finding.facts,
      order_id: args.order_id,
      payment_method_id: args.payment_method_id,
      userValue: fact.value ?? null,
    },
  };
};
