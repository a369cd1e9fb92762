/** `modify_pending_order_items.gift_card_balance_covers_difference`: If payment_method_id is a gift card, and the price difference (sum of the prices of new_item_ids minus sum of the prices of item_ids) is positive, the gift card's balance (get_user_details payment_methods) must be at least that difference. */
import type { PolicyCheck } from 'agentguard';
import type { GetProductDetailsResult, ModifyPendingOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

/** Dollars as whole cents, so that sums and comparisons are exact. */
const cents = (amount: number): number => Math.round(amount * 100);
const dollars = (amountInCents: number): string => `$${(amountInCents / 100).toFixed(2)}`;

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  if (!args.payment_method_id.startsWith('gift_card_')) return undefined;

  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const orderItems: readonly { item_id: string; product_id: string; price: number }[] = order.items;
  const products = new Map<string, GetProductDetailsResult>();
  const used = new Set<number>();

  let oldTotal = 0;
  let newTotal = 0;
  const unpriced: string[] = [];
  for (let i = 0; i < args.item_ids.length; i++) {
    const oldId = args.item_ids[i];
    const newId = args.new_item_ids[i];
    if (oldId === undefined || newId === undefined) continue;
    // Each position takes its own copy of the order item (an order may hold the same item twice).
    const index = orderItems.findIndex((item, at) => item.item_id === oldId && !used.has(at));
    const oldItem = orderItems[index];
    if (oldItem === undefined) {
      unpriced.push(oldId);
      continue;
    }
    used.add(index);
    let product = products.get(oldItem.product_id);
    if (product === undefined) {
      product = await lookup(context, 'get_product_details', { product_id: oldItem.product_id });
      products.set(oldItem.product_id, product);
    }
    const variant = product.variants[newId];
    if (variant === undefined) {
      unpriced.push(newId);
      continue;
    }
    oldTotal += cents(oldItem.price);
    newTotal += cents(variant.price);
  }

  if (unpriced.length > 0) {
    return {
      message:
        `The price difference of this modification cannot be determined, so gift card ${args.payment_method_id} cannot be ` +
        `shown to cover it: no price found for item(s) ${unpriced.join(', ')} in order ${args.order_id} or its products.`,
      facts: { order_id: args.order_id, payment_method_id: args.payment_method_id, unpriced },
    };
  }

  const difference = newTotal - oldTotal;
  if (difference <= 0) return undefined;

  const user = await lookup(context, 'get_user_details', { user_id: order.user_id });
  const card = Object.values(user.payment_methods).find((method) => method?.id === args.payment_method_id);
  const balance = cents(card?.balance ?? 0);
  if (balance >= difference) return undefined;

  return {
    message:
      `Gift card ${args.payment_method_id} has a balance of ${dollars(balance)}${card === undefined ? ' (not found in the profile of ' + order.user_id + ')' : ''}, ` +
      `which does not cover the price difference of ${dollars(difference)} (new items ${dollars(newTotal)} minus old items ${dollars(oldTotal)}). ` +
      `Ask the user for another payment method, then call again.`,
    facts: {
      order_id: args.order_id,
      payment_method_id: args.payment_method_id,
      gift_card_balance: balance / 100,
      price_difference: difference / 100,
      old_items_total: oldTotal / 100,
      new_items_total: newTotal / 100,
    },
  };
};
