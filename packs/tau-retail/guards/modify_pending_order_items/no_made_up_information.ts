/** `modify_pending_order_items.no_made_up_information`: The order id, the items to modify and the new items must come from the user's requests and tool results (get_order_details, get_product_details); the agent must not pick new options the user did not ask for. */
import type { Fact, PolicyCheck } from 'agentguard';
import type { GetProductDetailsResult, ModifyPendingOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';
import { domain } from '../lib/domain-description.ts';
import { statedOption } from '../lib/options.ts';

interface Claim {
  /** What the call takes from the user, for the agent. */
  what: string;
  fact: Fact;
}

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  const conversation = context.conversation;
  const claims: Claim[] = [];

  // The order the user asked about, or one a lookup returned (the user's orders, searched for the items they named).
  const looked = conversation.toolCalls().find((past) => (past.result ?? '').includes(`"${args.order_id}"`));
  claims.push({
    what: `order ${args.order_id}`,
    fact:
      looked === undefined
        ? conversation.stated({ value: args.order_id, kind: 'order' }, domain)
        : { answer: 'yes', evidence: [{ message: looked.messageIndex, words: [args.order_id] }] },
  });

  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const orderItems: {
    item_id: string;
    product_id: string;
    name: string;
    options: Readonly<Record<string, string | undefined>>;
  }[] = [];
  for (const item of order.items) {
    orderItems.push({ item_id: item.item_id, product_id: item.product_id, name: item.name, options: item.options });
  }
  const productRecords = orderItems.map((item) => ({ product_id: item.product_id, name: item.name }));

  const products = new Map<string, GetProductDetailsResult>();
  const namedProducts = new Set<string>();
  const count = Math.min(args.item_ids.length, args.new_item_ids.length);
  for (let position = 0; position < count; position++) {
    const itemId = args.item_ids[position];
    const newItemId = args.new_item_ids[position];
    if (itemId === undefined || newItemId === undefined) continue;
    const old = orderItems.find((item) => item.item_id === itemId);
    if (old === undefined) continue; // not an item of this order: another policy decides that

    // The item to modify: the user must have asked to change this product of the order.
    if (!namedProducts.has(old.product_id)) {
      namedProducts.add(old.product_id);
      claims.push({
        what: `changing the ${old.name} (item ${itemId})`,
        fact: conversation.stated({ value: old.product_id, kind: 'product', records: productRecords }, domain),
      });
    }

    // The new item: every option that differs from the old item must be one the user asked for.
    let product = products.get(old.product_id);
    if (product === undefined) {
      product = await lookup(context, 'get_product_details', { product_id: old.product_id });
      products.set(old.product_id, product);
    }
    const variant = product.variants[newItemId];
    if (variant === undefined) continue; // not a variant of this product: another policy decides that
    for (const [option, value] of Object.entries(variant.options)) {
      if (value === undefined || value === old.options[option]) continue;
      claims.push({
        what: `${option} '${value}' for the ${old.name} (new item ${newItemId})`,
        fact: statedOption(conversation, product, option, value),
      });
    }
  }

  const failing = claims.filter((claim) => claim.fact.answer !== 'yes');
  if (failing.length === 0) return undefined;
  const listed = failing.map((claim) => claim.what).join('; ');
  const message = `the call uses values the user did not ask for: ${listed}; ask the user which items and which new options they want instead of choosing them`;
  const facts = {
    order_id: args.order_id,
    item_ids: args.item_ids,
    new_item_ids: args.new_item_ids,
    notFromUser: failing.map((claim) => ({
      what: claim.what,
      answer: claim.fact.answer,
      evidence: claim.fact.evidence,
    })),
  };
  if (failing.some((claim) => claim.fact.answer === 'no')) return { message, facts };
  return { message, facts, ask: `Did the user ask for ${listed}?` };
};
