/** `exchange_delivered_order_items.remind_all_items_collected`: Before the call, the agent must have reminded the user to confirm that they have provided all items to be exchanged (see `lib/all-items.ts`), the user must have confirmed this, and item_ids must contain all the items the user asked to exchange in this order (since the last change carried out and the reminder the user answered, other than to say it stays) in one list. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';
import { confirmedAllItems, namedToChange } from '../lib/all-items.ts';
import { afterLastChange } from '../lib/changes.ts';
import { decide } from '../lib/dialogue.ts';
import { lookup } from '../lib/domain.ts';
import { domain } from '../lib/domain-description.ts';

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  const conversation = context.conversation;

  // 1. The agent must have reminded the user to confirm they provided all items to exchange, and the user confirmed.
  const all = confirmedAllItems(conversation, args.order_id);
  const confirmed = decide(all, {
    need: 'remind the user to confirm they have provided all items to be exchanged (an order can be exchanged only once)',
    question: 'Did the user confirm they have listed all the items they want to exchange in this order?',
  });
  if (confirmed !== undefined) return confirmed;

  // 2. Every item of the order the user asked to exchange must be in item_ids, in this one call: what the user said
  // since the last change, and since the reminder they answered (their answer is their last word on the list).
  const start = Math.max(afterLastChange(conversation), all.reminder);
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const calledItemIds = new Set(args.item_ids);
  const calledProductIds = new Set<string>();
  const records: Record<string, unknown>[] = [];
  for (const item of order.items) {
    records.push({ product_id: item.product_id, name: item.name, item_id: item.item_id });
    if (calledItemIds.has(item.item_id)) calledProductIds.add(item.product_id);
  }
  const left: { item_id: string; name: string }[] = [];
  const checkedProducts = new Set<string>();
  for (const item of order.items) {
    if (calledProductIds.has(item.product_id) || checkedProducts.has(item.product_id)) continue;
    checkedProducts.add(item.product_id);
    const named = conversation.stated({ value: item.product_id, kind: 'item', records }, domain);
    if (namedToChange(conversation, named, start)) left.push({ item_id: item.item_id, name: item.name });
  }
  if (left.length > 0) {
    const names = left.map((item) => `${item.name} (${item.item_id})`).join(', ');
    return {
      message:
        `The user asked to exchange ${names} in order ${args.order_id}, but item_ids ${JSON.stringify(args.item_ids)} ` +
        `leave it out; an order can be exchanged only once, so collect all items the user wants to exchange into one call.`,
      facts: { order_id: args.order_id, item_ids: args.item_ids, items_asked_but_missing: left },
    };
  }
  return undefined;
};
