/** `modify_pending_order_items.items_belong_to_order`: Every id in item_ids must be an item of the order (get_order_details(order_id).items), and an id may appear in item_ids at most as many times as it appears in the order. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

function countIds(ids: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const orderItemIds: string[] = [];
  for (const item of order.items) orderItemIds.push(item.item_id);
  const inOrder = countIds(orderItemIds);
  const requested = countIds(args.item_ids);

  const notInOrder: string[] = [];
  const tooMany: { item_id: string; requested: number; in_order: number }[] = [];
  for (const [itemId, count] of requested) {
    const available = inOrder.get(itemId) ?? 0;
    if (available === 0) notInOrder.push(itemId);
    else if (count > available) tooMany.push({ item_id: itemId, requested: count, in_order: available });
  }

  if (notInOrder.length > 0) {
    return {
      message:
        `Item${notInOrder.length > 1 ? 's' : ''} ${notInOrder.join(', ')} ${notInOrder.length > 1 ? 'are' : 'is'} not in order ` +
        `${args.order_id}, whose items are ${orderItemIds.join(', ')}; only items of this order can be modified.`,
      facts: {
        order_id: args.order_id,
        item_ids: args.item_ids,
        order_item_ids: orderItemIds,
        not_in_order: notInOrder,
      },
    };
  }
  if (tooMany.length > 0) {
    const described = tooMany.map(
      (entry) => `${entry.item_id} ${entry.requested} times (the order has ${entry.in_order})`,
    );
    return {
      message:
        `item_ids lists ${described.join(', ')} for order ${args.order_id}; an item can be modified at most as many times ` +
        `as it appears in the order.`,
      facts: { order_id: args.order_id, item_ids: args.item_ids, order_item_ids: orderItemIds, too_many: tooMany },
    };
  }
  return undefined;
};
