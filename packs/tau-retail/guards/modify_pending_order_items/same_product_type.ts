/** `modify_pending_order_items.same_product_type`: For each position i, new_item_ids[i] must be a variant of the same product as item_ids[i] (the same product_id per get_order_details and get_product_details); changing to an item of a different product is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { GetProductDetailsResult, ModifyPendingOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

interface Mismatch {
  position: number;
  item_id: string;
  new_item_id: string;
  product_id: string;
  product_name: string;
}

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const productOf = new Map<string, string>();
  for (const item of order.items) productOf.set(item.item_id, item.product_id);

  const products = new Map<string, GetProductDetailsResult>();
  const mismatches: Mismatch[] = [];
  const count = Math.min(args.item_ids.length, args.new_item_ids.length);
  for (let position = 0; position < count; position++) {
    const itemId = args.item_ids[position];
    const newItemId = args.new_item_ids[position];
    if (itemId === undefined || newItemId === undefined) continue;
    const productId = productOf.get(itemId);
    if (productId === undefined) continue; // not an item of this order: another policy decides that
    let product = products.get(productId);
    if (product === undefined) {
      product = await lookup(context, 'get_product_details', { product_id: productId });
      products.set(productId, product);
    }
    if (product.variants[newItemId] === undefined) {
      mismatches.push({
        position,
        item_id: itemId,
        new_item_id: newItemId,
        product_id: productId,
        product_name: product.name,
      });
    }
  }
  if (mismatches.length === 0) return undefined;
  return {
    message: `${mismatches
      .map(
        (mismatch) =>
          `new item ${mismatch.new_item_id} is not a variant of ${mismatch.product_name} (product ${mismatch.product_id}), the product of item ${mismatch.item_id}`,
      )
      .join('; ')}; an item can only be changed to another option of the same product`,
    facts: { order_id: args.order_id, mismatches },
  };
};
