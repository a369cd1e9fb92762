/** `return_delivered_order_items.items_belong_to_order`: item_ids must be non-empty and every id in it must be an item of the order (get_order_details(order_id).items); an id may appear in item_ids at most as many times as it appears in the order. */
import type { PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

/** How many times each id occurs in a list. */
function countIds(ids: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  if (args.item_ids.length === 0) {
    return {
      message: `item_ids is empty: the return of order ${args.order_id} must name at least one item of the order`,
      facts: { order_id: args.order_id, item_ids: args.item_ids },
    };
  }

  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const orderItemIds: string[] = [];
  for (const item of order.items) orderItemIds.push(item.item_id);
  const inOrder = countIds(orderItemIds);
  const requested = countIds(args.item_ids);

  const problems: { item_id: string; requested: number; in_order: number }[] = [];
  for (const [itemId, count] of requested) {
    const available = inOrder.get(itemId) ?? 0;
    if (count > available) problems.push({ item_id: itemId, requested: count, in_order: available });
  }
  if (problems.length === 0) return undefined;

  const described = problems
    .map((problem) =>
      problem.in_order === 0
        ? `${problem.item_id} is not in the order`
        : `${problem.item_id} is listed ${problem.requested} times but the order has it ${problem.in_order} time(s)`,
    )
    .join('; ');
  return {
    message: `the items to return must be items of order ${args.order_id} (which has ${orderItemIds.join(', ')}): ${described}`,
    facts: { order_id: args.order_id, item_ids: args.item_ids, order_item_ids: orderItemIds, problems },
  };
};
