/** `exchange_delivered_order_items.new_item_available`: For every position i, new_item_ids[i] must be available: in get_product_details of its product, that variant's available flag is true. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs, GetProductDetailsResult } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

interface UnavailableItem {
  position: number;
  item_id: string;
  new_item_id: string;
  product_id: string;
  product_name: string;
  found: boolean;
}

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const orderItems: readonly { item_id: string; product_id: string }[] = order.items;

  // One get_product_details per product, however many positions use it.
  const products = new Map<string, GetProductDetailsResult>();
  const unavailable: UnavailableItem[] = [];

  for (let i = 0; i < args.new_item_ids.length; i++) {
    const newItemId = args.new_item_ids[i];
    const oldItemId = args.item_ids[i];
    if (newItemId === undefined || oldItemId === undefined) continue;
    // The product of the new item is the product of the order item it replaces; an item not in the order is
    // another policy's concern.
    const productId = orderItems.find((item) => item.item_id === oldItemId)?.product_id;
    if (productId === undefined) continue;

    let product = products.get(productId);
    if (product === undefined) {
      product = await lookup(context, 'get_product_details', { product_id: productId });
      products.set(productId, product);
    }
    const variant = product.variants[newItemId];
    if (variant === undefined || !variant.available) {
      unavailable.push({
        position: i,
        item_id: oldItemId,
        new_item_id: newItemId,
        product_id: productId,
        product_name: product.name,
        found: variant !== undefined,
      });
    }
  }

  if (unavailable.length === 0) return undefined;
  const listed = unavailable
    .map((entry) =>
      entry.found
        ? `new item ${entry.new_item_id} of ${entry.product_name} (product ${entry.product_id}) is not available`
        : `new item ${entry.new_item_id} is not a variant of ${entry.product_name} (product ${entry.product_id}), so it is not an available option`,
    )
    .join('; ');
  return {
    message:
      `Items can only be exchanged for available new items: ${listed}. ` +
      `Tell the user and offer the available options of the same product instead.`,
    facts: {
      order_id: args.order_id,
      new_item_ids: args.new_item_ids,
      unavailable,
    },
  };
};
