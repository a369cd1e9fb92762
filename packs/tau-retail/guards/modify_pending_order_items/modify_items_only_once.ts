/** `modify_pending_order_items.modify_items_only_once`: modify_pending_order_items may be called at most once per order: if it was already called successfully for this order_id earlier (a call refused or failed changed nothing) in the conversation, the call is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';
import { changedNothing } from '../lib/changes.ts';

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  const earlier = context.conversation
    .toolCalls()
    .filter(
      (past) =>
        past.call.name === 'modify_pending_order_items' &&
        past.call.arguments['order_id'] === args.order_id &&
        !changedNothing(past.result),
    );
  const first = earlier[0];
  if (first === undefined) return undefined;

  return {
    message: `The items of order ${args.order_id} were already modified earlier in this conversation (modify_pending_order_items with item_ids ${JSON.stringify(first.call.arguments['item_ids'])}); items of an order can be modified only once. Tell the user the items of this order cannot be modified again.`,
    facts: {
      order_id: args.order_id,
      earlier_calls: earlier.map((past) => ({ call_id: past.call.id, arguments: past.call.arguments })),
    },
  };
};
