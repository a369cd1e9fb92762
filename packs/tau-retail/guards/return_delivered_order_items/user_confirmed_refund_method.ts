/** `return_delivered_order_items.user_confirmed_refund_method`: Before the call, the user must have confirmed in the conversation the payment method to receive the refund, and payment_method_id must equal it (the agent must not choose the refund method itself). */
import type { GuardContext, PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { decide } from '../lib/dialogue.ts';
import { lookup } from '../lib/domain.ts';
import { domain } from '../lib/domain-description.ts';
import { chosenAmongOthers, type PaymentMethodRecord } from '../lib/payment.ts';

/**
 * Whether the user said yes to the listing of this return naming `method`: by its id, its last four digits ("ending in
 * 2478"), or, for the original payment method, as "the original payment method".
 */
function confirmedInListing(
  context: GuardContext,
  orderId: string,
  method: PaymentMethodRecord,
  original: string | undefined,
): boolean {
  const names = [method.id];
  if (typeof method.last_four === 'string') names.push(`ending in ${method.last_four}`);
  if (method.id === original) names.push('original payment method');
  const agreement = context.conversation.agreed({
    tool: 'return_delivered_order_items',
    names: [orderId],
    sameTarget: (earlier) => earlier['order_id'] === orderId,
  });
  if (agreement.answer !== 'yes') return false;
  const listing = context.conversation.messages[agreement.proposals[0] ?? -1];
  const listed = listing?.role === 'assistant' ? listing.text.toLowerCase() : '';
  return names.some((name) => listed.includes(name.toLowerCase()));
}

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const user = await lookup(context, 'get_user_details', { user_id: order.user_id });

  const records: Record<string, unknown>[] = [];
  for (const method of Object.values(user.payment_methods)) {
    if (method !== undefined) records.push({ ...method });
  }
  const payments = order.payment_history.filter((entry) => entry.transaction_type.trim().toLowerCase() === 'payment');
  const original = (payments[0] ?? order.payment_history[0])?.payment_method_id;
  const roles: Record<string, string> = original === undefined ? {} : { original };

  const fact = context.conversation.stated(
    { value: args.payment_method_id, kind: 'payment_method', records, roles },
    domain,
  );
  if (fact.answer === 'yes') return undefined;
  // Their words named this method among others (one per request) and they said yes to the listing of this return.
  const method = Object.values(user.payment_methods).find((record) => record?.id === args.payment_method_id);
  if (
    method !== undefined &&
    chosenAmongOthers(context, 'return_delivered_order_items', args.order_id, method, original)
  ) {
    return undefined;
  }
  // The wiki asks the user to confirm the refund method: a yes to this return's listing that names the method counts.
  if (method !== undefined && confirmedInListing(context, args.order_id, method, original)) return undefined;
  const finding = decide(fact, {
    need: `the user must choose where the refund goes; the call refunds to ${args.payment_method_id}, which the user did not confirm`,
    question: `Did the user confirm that the refund for order ${args.order_id} should go to ${args.payment_method_id}?`,
  });
  if (finding === undefined) return undefined;
  return {
    ...finding,
    facts: {
      ...finding.facts,
      order_id: args.order_id,
      payment_method_id: args.payment_method_id,
      original_payment_method_id: original,
    },
  };
};
