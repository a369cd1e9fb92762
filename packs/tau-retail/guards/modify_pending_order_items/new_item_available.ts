/** `modify_pending_order_items.new_item_available`: For each position i, the item new_item_ids[i] must be available: in get_product_details for its product, that variant exists and its 'available' flag is true. */
import type { PolicyCheck } from 'agentguard';
import type { GetProductDetailsResult, ModifyPendingOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const productOf = new Map<string, string>();
  for (const item of order.items) productOf.set(item.item_id, item.product_id);

  const products = new Map<string, GetProductDetailsResult>();
  const productDetails = async (productId: string): Promise<GetProductDetailsResult> => {
    const known = products.get(productId);
    if (known !== undefined) return known;
    const fetched = await lookup(context, 'get_product_details', { product_id: productId });
    products.set(productId, fetched);
    return fetched;
  };

  for (const [position, itemId] of args.item_ids.entries()) {
    const newItemId = args.new_item_ids[position];
    if (newItemId === undefined) continue;
    // The new item is a variant of the old item's product (another policy checks that it is).
    const productId = productOf.get(itemId);
    if (productId === undefined) continue;
    const product = await productDetails(productId);
    const variant = product.variants[newItemId];
    if (variant === undefined) {
      return {
        message:
          `New item ${newItemId} (for item ${itemId}) is not a variant of ${product.name} (product ${productId}) ` +
          `in get_product_details, so it is not available; choose an available option of that product.`,
        facts: {
          order_id: args.order_id,
          item_id: itemId,
          new_item_id: newItemId,
          product_id: productId,
          variant_found: false,
        },
      };
    }
    if (!variant.available) {
      return {
        message:
          `New item ${newItemId} (${product.name}, for item ${itemId}) is not available (available: false); ` +
          `tell the user and offer the available options of ${product.name}.`,
        facts: {
          order_id: args.order_id,
          item_id: itemId,
          new_item_id: newItemId,
          product_id: productId,
          available: false,
        },
      };
    }
  }
  return undefined;
};
