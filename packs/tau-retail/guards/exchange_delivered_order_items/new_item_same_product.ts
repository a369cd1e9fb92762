/** `exchange_delivered_order_items.new_item_same_product`: For every position i, new_item_ids[i] must be a variant of the same product as item_ids[i] (get_product_details of that item's product_id lists new_item_ids[i]); an item exchanged for an item of another product or product type is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs, GetOrderDetailsResult, GetProductDetailsResult } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

interface Mismatch {
  position: number;
  item_id: string;
  product_id: string;
  product_name: string;
  new_item_id: string;
}

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  let order: GetOrderDetailsResult;
  try {
    order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  } catch (error) {
    return {
      message: `Order ${args.order_id} could not be looked up, so the products of the items to exchange cannot be verified.`,
      facts: { order_id: args.order_id, error: String(error) },
    };
  }

  // The product of each item of the order.
  const productOfItem = new Map<string, string>();
  for (const item of order.items) productOfItem.set(item.item_id, item.product_id);

  const products = new Map<string, GetProductDetailsResult>();
  const mismatches: Mismatch[] = [];
  for (let position = 0; position < args.item_ids.length; position += 1) {
    const itemId = args.item_ids[position];
    const newItemId = args.new_item_ids[position];
    if (itemId === undefined || newItemId === undefined) continue;

    const productId = productOfItem.get(itemId);
    if (productId === undefined) {
      return {
        message: `Item ${itemId} (position ${position}) is not an item of order ${args.order_id}, so new item ${newItemId} cannot be shown to be of the same product.`,
        facts: { order_id: args.order_id, position, item_id: itemId, new_item_id: newItemId },
      };
    }

    let product = products.get(productId);
    if (product === undefined) {
      try {
        product = await lookup(context, 'get_product_details', { product_id: productId });
      } catch (error) {
        return {
          message: `Product ${productId} of item ${itemId} could not be looked up, so new item ${newItemId} cannot be shown to be one of its variants.`,
          facts: { product_id: productId, item_id: itemId, new_item_id: newItemId, error: String(error) },
        };
      }
      products.set(productId, product);
    }

    if (product.variants[newItemId] === undefined) {
      mismatches.push({
        position,
        item_id: itemId,
        product_id: productId,
        product_name: product.name,
        new_item_id: newItemId,
      });
    }
  }

  if (mismatches.length > 0) {
    const described = mismatches
      .map(
        (mismatch) =>
          `new item ${mismatch.new_item_id} (position ${mismatch.position}) is not a variant of ${mismatch.product_name} (product ${mismatch.product_id}) of item ${mismatch.item_id}`,
      )
      .join('; ');
    return {
      message: `Each item can only be exchanged for another option of the same product, with no change of product type: ${described}. Offer the user the options of the same product instead.`,
      facts: { order_id: args.order_id, mismatches },
    };
  }
  return undefined;
};
