/** `modify_pending_order_items.explicit_confirmation_before_item_modification`: Before the call, the agent must have listed the action details to the user (order id, each item to be modified with its new item/options, the price difference, and the payment method to pay or receive the refund) and the user's latest message must explicitly confirm with 'yes' to proceed with exactly these details. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';
import { decide, unconfirmed } from '../lib/dialogue.ts';
import { lookup } from '../lib/domain.ts';

/** How a proposal may name a payment method of this kind, by its id's prefix. */
const paymentKinds: readonly { prefix: string; names: readonly string[] }[] = [
  { prefix: 'gift_card_', names: ['gift card'] },
  { prefix: 'credit_card_', names: ['credit card'] },
  { prefix: 'paypal_', names: ['paypal'] },
];

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  const orderId = args.order_id;
  const sameTarget = (earlier: Record<string, unknown>): boolean => earlier['order_id'] === orderId;
  const decided = {
    order_id: orderId,
    item_ids: args.item_ids,
    new_item_ids: args.new_item_ids,
    payment_method_id: args.payment_method_id,
  };

  // An explicit yes to the agent's proposal of this modification (naming the order or its items), not used up.
  const confirmation = unconfirmed(
    context,
    'modify_pending_order_items',
    { action: /\bmodif|\bchange/, details: [orderId, ...args.item_ids, ...args.new_item_ids] },
    sameTarget,
  );
  if (confirmation !== undefined) {
    return { ...confirmation, facts: { ...confirmation.facts, ...decided } };
  }

  // The confirmed proposal must name the payment method this call uses for the price difference.
  const order = await lookup(context, 'get_order_details', { order_id: orderId });
  const original = order.payment_history.find((entry) => entry.transaction_type === 'payment')?.payment_method_id;
  const paymentNames: string[] = [args.payment_method_id];
  for (const kind of paymentKinds) {
    if (args.payment_method_id.startsWith(kind.prefix)) paymentNames.push(...kind.names);
  }
  if (original !== undefined && original === args.payment_method_id) {
    paymentNames.push('original payment method', 'original payment');
  }
  const paymentAgreed = context.conversation.agreed({
    tool: 'modify_pending_order_items',
    names: paymentNames,
    sameTarget,
  });
  const finding = decide(paymentAgreed, {
    need:
      `the modification the user confirmed does not name the payment method ${args.payment_method_id} that this call ` +
      `uses for the price difference; list the details exactly as they will be applied and ask for a yes first`,
    question: `Did the user confirm paying the price difference with ${args.payment_method_id}?`,
    missingDenies: true,
  });
  if (finding !== undefined) {
    return { ...finding, facts: { ...finding.facts, ...decided, original_payment_method_id: original ?? null } };
  }
  return undefined;
};
