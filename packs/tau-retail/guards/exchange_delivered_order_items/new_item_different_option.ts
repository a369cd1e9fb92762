/** `exchange_delivered_order_items.new_item_different_option`: For every position i, new_item_ids[i] should differ from item_ids[i] (a different product option); an item exchanged for the identical item asks a person, since users do ask for a like-for-like replacement. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args) => {
  const identical: { position: number; item_id: string }[] = [];
  const count = Math.min(args.item_ids.length, args.new_item_ids.length);
  for (let i = 0; i < count; i++) {
    const oldItem = args.item_ids[i];
    const newItem = args.new_item_ids[i];
    if (oldItem !== undefined && newItem !== undefined && oldItem === newItem) {
      identical.push({ position: i, item_id: oldItem });
    }
  }
  if (identical.length === 0) return undefined;
  const listed = identical.map((entry) => `item ${entry.item_id} (position ${entry.position})`).join(', ');
  return {
    message:
      `Each item can only be exchanged for a different option of the same product, but ${listed} ` +
      `would be exchanged for the identical item. Ask the user which different option they want for it, or leave it out of the exchange.`,
    facts: {
      order_id: args.order_id,
      item_ids: args.item_ids,
      new_item_ids: args.new_item_ids,
      identical,
    },
    ask: `Did the user ask for ${listed} of order ${args.order_id} to be exchanged for the identical item?`,
  };
};
