/** `modify_pending_order_items.new_item_different_option`: For each position i, new_item_ids[i] must differ from item_ids[i] (a different product option of the same product). */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args) => {
  const unchanged: { position: number; item_id: string }[] = [];
  args.item_ids.forEach((itemId, position) => {
    const newItemId = args.new_item_ids[position];
    if (newItemId !== undefined && newItemId.trim() === itemId.trim()) unchanged.push({ position, item_id: itemId });
  });
  if (unchanged.length === 0) return undefined;
  const described = unchanged.map((entry) => `${entry.item_id} (position ${entry.position + 1})`);
  return {
    message:
      `The new item is the same as the old item for ${described.join(', ')} in order ${args.order_id}; each item must be ` +
      `modified to a different option of the same product. Leave out items that do not change, or ask the user which option they want.`,
    facts: { order_id: args.order_id, item_ids: args.item_ids, new_item_ids: args.new_item_ids, unchanged },
  };
};
