/** `modify_pending_order_items.all_requested_items_included`: item_ids must contain every item of this order that the user asked to modify since the last change carried out in the conversation (not one they said stays as it is): all items to be changed must be collected into this single call, none left out for a later call. */
import type { PolicyCheck, PolicyFinding } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';
import { namedToChange } from '../lib/all-items.ts';
import { afterLastChange, saidSince } from '../lib/changes.ts';
import { lookup } from '../lib/domain.ts';
import { domain } from '../lib/domain-description.ts';

/** Phrases by which a user asks to change every copy of an item. */
const everyCopyPhrases: readonly string[] = [
  'both',
  'both of them',
  'all of them',
  'each of them',
  'each one',
  'every one',
  'all two',
  'all three',
  'all of the',
  'two of them',
  'the two',
];

interface OrderProduct {
  product_id: string;
  name: string;
  /** The order's item ids of this product, one entry per copy. */
  items: string[];
}

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  const conversation = context.conversation;
  const start = afterLastChange(conversation);
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const orderItems: readonly { name: string; product_id: string; item_id: string }[] = order.items;

  const products = new Map<string, OrderProduct>();
  for (const item of orderItems) {
    const product = products.get(item.product_id) ?? { product_id: item.product_id, name: item.name, items: [] };
    product.items.push(item.item_id);
    products.set(item.product_id, product);
  }
  // One record per product: copies of the same item must not make the user's words look ambiguous.
  const records = [...products.values()].map((product) => ({ name: product.name, product_id: product.product_id }));

  const countIn = (list: readonly string[], ids: readonly string[]): number =>
    list.filter((id) => ids.some((other) => other === id)).length;

  let askedForEveryCopy: boolean | undefined;
  const userAskedForEveryCopy = (): boolean => {
    if (askedForEveryCopy !== undefined) return askedForEveryCopy;
    askedForEveryCopy =
      saidSince(conversation.reasonGiven({ all: everyCopyPhrases }), start) ||
      everyCopyPhrases.some((phrase) => saidSince(conversation.stated({ value: phrase }), start));
    return askedForEveryCopy;
  };

  for (const product of products.values()) {
    const inCall = countIn(args.item_ids, product.items);
    if (inCall >= product.items.length) continue;

    if (inCall === 0) {
      // The user spoke of this item of the order since the last change, but the call leaves it out.
      const named = conversation.stated({ value: product.product_id, kind: 'item', records }, domain);
      if (!namedToChange(conversation, named, start)) continue;
      return leftOut(
        `the user asked about the ${product.name} (item ${product.items.join(', ')}) of order ${args.order_id}, ` +
          `but item_ids leaves it out; items can be modified only once, so every item the user wants changed must be in this call`,
        `Did the user ask to modify the ${product.name} of order ${args.order_id} too?`,
        {
          product_id: product.product_id,
          name: product.name,
          order_item_ids: product.items,
          in_call: 0,
          evidence: named.evidence,
        },
      );
    }

    // Some copies of this item are in the call, not all: left out when the user asked for every copy.
    if (userAskedForEveryCopy()) {
      return leftOut(
        `the user asked to change every ${product.name} of order ${args.order_id} (${product.items.length} in the order), ` +
          `but item_ids holds only ${inCall}; collect all of them into this single call`,
        `Did the user ask to modify all ${product.items.length} of the ${product.name} items in order ${args.order_id}?`,
        { product_id: product.product_id, name: product.name, order_item_ids: product.items, in_call: inCall },
      );
    }
  }
  return undefined;

  function leftOut(message: string, ask: string, item: Record<string, unknown>): PolicyFinding {
    return {
      message,
      facts: { order_id: args.order_id, item_ids: args.item_ids, left_out: item },
      ask,
    };
  }
};
