/** `exchange_delivered_order_items.items_belong_to_order`: item_ids and new_item_ids must have the same length, and each item_ids[i] must be an item in the order (get_order_details), an id appearing in item_ids at most as many times as in the order. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

/** How many times each id occurs in a list. */
function counts(ids: Iterable<string>): Map<string, number> {
  const result = new Map<string, number>();
  for (const id of ids) result.set(id, (result.get(id) ?? 0) + 1);
  return result;
}

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  if (args.item_ids.length !== args.new_item_ids.length) {
    return {
      message: `item_ids has ${args.item_ids.length} item(s) but new_item_ids has ${args.new_item_ids.length}; each item to exchange must be paired with exactly one new item`,
      facts: { item_ids: args.item_ids, new_item_ids: args.new_item_ids },
    };
  }
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const orderItemIds: string[] = [];
  for (const item of order.items) orderItemIds.push(item.item_id);
  const inOrder = counts(orderItemIds);
  const requested = counts(args.item_ids);
  const notInOrder: string[] = [];
  const tooMany: { item_id: string; requested: number; inOrder: number }[] = [];
  for (const [id, times] of requested) {
    const available = inOrder.get(id) ?? 0;
    if (available === 0) notInOrder.push(id);
    else if (times > available) tooMany.push({ item_id: id, requested: times, inOrder: available });
  }
  if (notInOrder.length === 0 && tooMany.length === 0) return undefined;
  const problems: string[] = [];
  if (notInOrder.length > 0) problems.push(`item(s) ${notInOrder.join(', ')} are not in order ${args.order_id}`);
  for (const extra of tooMany) {
    problems.push(
      `item ${extra.item_id} is listed ${extra.requested} times but appears ${extra.inOrder} time(s) in order ${args.order_id}`,
    );
  }
  return {
    message: `${problems.join('; ')} (the order holds ${orderItemIds.join(', ')}); only items of this order can be exchanged`,
    facts: { order_id: args.order_id, item_ids: args.item_ids, orderItemIds, notInOrder, tooMany },
  };
};
