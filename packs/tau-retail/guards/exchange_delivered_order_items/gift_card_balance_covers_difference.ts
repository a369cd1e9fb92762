/** `exchange_delivered_order_items.gift_card_balance_covers_difference`: If payment_method_id is a gift card and the new items cost more than the old ones (sum of new item prices minus sum of old item prices > 0), the gift card balance (get_user_details) must be at least that price difference. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs, GetProductDetailsResult } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

/** An amount in whole cents, so that sums and comparisons are exact. */
function cents(amount: number): number {
  return Math.round(amount * 100);
}

/** Whole cents written as dollars. */
function dollars(amountInCents: number): string {
  return (amountInCents / 100).toFixed(2);
}

interface PricedPair {
  item_id: string;
  old_price: number;
  new_item_id: string;
  new_price: number;
}

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  if (!args.payment_method_id.startsWith('gift_card_')) return undefined;

  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const orderItems = new Map<string, { product_id: string; price: number }>();
  for (const item of order.items) orderItems.set(item.item_id, { product_id: item.product_id, price: item.price });

  const products = new Map<string, GetProductDetailsResult>();
  const pairs: PricedPair[] = [];
  let oldCents = 0;
  let newCents = 0;
  const count = Math.max(args.item_ids.length, args.new_item_ids.length);
  for (let index = 0; index < count; index += 1) {
    const oldId = args.item_ids[index];
    const newId = args.new_item_ids[index];
    if (oldId === undefined || newId === undefined) {
      return {
        message: `the price difference cannot be computed: item_ids (${args.item_ids.length}) and new_item_ids (${args.new_item_ids.length}) do not pair up`,
        facts: { item_ids: args.item_ids, new_item_ids: args.new_item_ids },
      };
    }
    const oldItem = orderItems.get(oldId);
    if (oldItem === undefined) {
      return {
        message: `the price difference cannot be computed: item ${oldId} is not in order ${args.order_id}`,
        facts: { order_id: args.order_id, item_id: oldId },
      };
    }
    let product = products.get(oldItem.product_id);
    if (product === undefined) {
      product = await lookup(context, 'get_product_details', { product_id: oldItem.product_id });
      products.set(oldItem.product_id, product);
    }
    const variant = product.variants[newId];
    if (variant === undefined) {
      return {
        message: `the price difference cannot be computed: new item ${newId} is not a variant of product ${oldItem.product_id} (${product.name})`,
        facts: { product_id: oldItem.product_id, new_item_id: newId },
      };
    }
    oldCents += cents(oldItem.price);
    newCents += cents(variant.price);
    pairs.push({ item_id: oldId, old_price: oldItem.price, new_item_id: newId, new_price: variant.price });
  }

  const differenceCents = newCents - oldCents;
  if (differenceCents <= 0) return undefined;

  const user = await lookup(context, 'get_user_details', { user_id: order.user_id });
  const giftCard = user.payment_methods[args.payment_method_id];
  const balance = giftCard?.balance ?? 0;
  if (cents(balance) >= differenceCents) return undefined;

  const where = giftCard === undefined ? ` (${args.payment_method_id} is not in the profile of ${order.user_id})` : '';
  return {
    message: `gift card ${args.payment_method_id} has a balance of $${dollars(cents(balance))}${where}, less than the price difference of $${dollars(differenceCents)} (new items $${dollars(newCents)} minus old items $${dollars(oldCents)}); ask the user for another payment method`,
    facts: {
      payment_method_id: args.payment_method_id,
      balance,
      price_difference: differenceCents / 100,
      old_total: oldCents / 100,
      new_total: newCents / 100,
      pairs,
    },
  };
};
