/** `modify_pending_order_items.item_lists_same_length`: item_ids and new_item_ids must have the same length, so that each old item is paired with the new item at the same position. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args) => {
  if (args.item_ids.length === args.new_item_ids.length) return undefined;
  return {
    message: `item_ids has ${args.item_ids.length} item(s) (${args.item_ids.join(', ') || 'none'}) but new_item_ids has ${args.new_item_ids.length} (${args.new_item_ids.join(', ') || 'none'}); pair each item to modify with exactly one new item at the same position`,
    facts: { order_id: args.order_id, item_ids: args.item_ids, new_item_ids: args.new_item_ids },
  };
};
