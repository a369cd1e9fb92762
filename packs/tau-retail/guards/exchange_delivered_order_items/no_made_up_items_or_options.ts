/** `exchange_delivered_order_items.no_made_up_items_or_options`: The order id, the items to exchange and the new items must come from the user's requests and tool results (get_order_details, get_product_details); the agent must not choose items or new options the user did not ask for (an option the agent offered and the user took, in their answer to the offer, counts as asked for). */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs, GetProductDetailsResult } from '../../types.ts';
import { decide } from '../lib/dialogue.ts';
import { lookup } from '../lib/domain.ts';
import { tookOffer } from '../lib/offers.ts';
import { statedOption } from '../lib/options.ts';

type Options = Readonly<Record<string, string | undefined>>;

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  // The order must exist (a made-up order id fails the lookup) and hold the items to exchange.
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const productOf = new Map<string, string>();
  const optionsInOrder = new Map<string, Options>();
  for (const item of order.items) {
    productOf.set(item.item_id, item.product_id);
    optionsInOrder.set(item.item_id, item.options as Options);
  }

  const products = new Map<string, GetProductDetailsResult>();
  const productDetails = async (productId: string): Promise<GetProductDetailsResult> => {
    const known = products.get(productId);
    if (known !== undefined) return known;
    const fetched = await lookup(context, 'get_product_details', { product_id: productId });
    products.set(productId, fetched);
    return fetched;
  };

  for (const [index, oldItemId] of args.item_ids.entries()) {
    const newItemId = args.new_item_ids[index];
    if (newItemId === undefined) continue;

    const productId = productOf.get(oldItemId);
    if (productId === undefined) {
      return {
        message:
          `Item ${oldItemId} is not an item of order ${args.order_id} (get_order_details); ` +
          `exchange only items of the order that the user asked for.`,
        facts: { order_id: args.order_id, item_id: oldItemId, order_item_ids: [...productOf.keys()] },
      };
    }

    const product = await productDetails(productId);
    const newVariant = product.variants[newItemId];
    if (newVariant === undefined) {
      return {
        message:
          `New item ${newItemId} is not among the variants of ${product.name} (product ${productId}) in get_product_details; ` +
          `use only a variant the tools returned and the user asked for.`,
        facts: { item_id: oldItemId, new_item_id: newItemId, product_id: productId },
      };
    }

    // The user named the new item itself.
    if (context.conversation.stated({ value: newItemId }).answer === 'yes') continue;

    // Otherwise every option that changes must be one the user asked for.
    const oldOptions: Options = product.variants[oldItemId]?.options ?? optionsInOrder.get(oldItemId) ?? {};
    const newOptions: Options = newVariant.options;
    for (const [option, value] of Object.entries(newOptions)) {
      if (value === undefined || oldOptions[option] === value) continue;
      const stated = statedOption(context.conversation, product, option, value);
      if (
        stated.answer !== 'yes' &&
        tookOffer(context.conversation, 'exchange_delivered_order_items', value, newItemId).answer === 'yes'
      ) {
        continue;
      }
      const finding = decide(stated, {
        need:
          `the user did not ask for ${option} '${value}' of ${product.name} (new item ${newItemId} for item ${oldItemId}); ` +
          `ask the user which option they want instead of choosing it`,
        question: `Did the user ask for ${product.name} with ${option} '${value}' (item ${newItemId})?`,
      });
      if (finding !== undefined) {
        return {
          ...finding,
          facts: { ...finding.facts, item_id: oldItemId, new_item_id: newItemId, option, value },
        };
      }
    }
  }
  return undefined;
};
