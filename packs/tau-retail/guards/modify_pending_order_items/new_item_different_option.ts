/** `modify_pending_order_items.new_item_different_option`: For each position i, new_item_ids[i] should differ from item_ids[i] (a different product option of the same product); an item 'modified' to itself asks a person, since users do ask for an item to stay as it is within a modification. */
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
    ask: `Did the user ask for ${described.join(', ')} of order ${args.order_id} to be modified to the identical item?`,
  };
};
