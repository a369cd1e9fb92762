/** `return_delivered_order_items.explicit_confirmation_before_return`: Before the call, the agent must have listed the return details to the user (order id, the items to be returned, the refund payment method) and the user's latest message must explicitly confirm with 'yes' to proceed with exactly these details. */
import type { PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { unconfirmed } from '../lib/dialogue.ts';

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  const finding = unconfirmed(
    context,
    'return_delivered_order_items',
    { action: /\breturn/, details: [args.order_id, ...args.item_ids] },
    (earlier) => earlier['order_id'] === args.order_id,
  );
  if (finding === undefined) return undefined;
  return {
    ...finding,
    facts: {
      ...finding.facts,
      order_id: args.order_id,
      item_ids: args.item_ids,
      payment_method_id: args.payment_method_id,
    },
  };
};
