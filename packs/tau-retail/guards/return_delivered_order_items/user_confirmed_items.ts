/** `return_delivered_order_items.user_confirmed_items`: Before the call, the user must have confirmed in the conversation the list of items to be returned, and item_ids must match exactly that list (the agent must not add or drop items). */
import type { Message, PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { decide } from '../lib/dialogue.ts';
import { lookup } from '../lib/domain.ts';

/** How a listing says an item is not part of the action (it stays as it is), or names it only in an offer ("if you'd also like …"). */
const kept =
  /\b(remain|remains|unchanged|not (be )?(included|returned)|won['’]t be|will not be|would not be|keep|kept|stay|stays|if you)\b/u;

/**
 * Whether the listing the user said yes to names the item among those to return: in a line or sentence that does not
 * say it stays ("The desk lamp and hiking boots will remain unchanged.").
 */
function listedToReturn(listing: Message | undefined, names: readonly string[]): boolean {
  if (listing?.role !== 'assistant') return false;
  const parts = listing.text.toLowerCase().split(/\n|(?<=[.!?])\s+/u);
  return parts.some((part) => names.some((name) => part.includes(name.toLowerCase())) && !kept.test(part));
}

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  const conversation = context.conversation;
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const orderItems: readonly { item_id: string; name: string }[] = order.items;
  const sameTarget = (earlier: Record<string, unknown>): boolean => earlier['order_id'] === args.order_id;

  const nameOf = (itemId: string): string | undefined => orderItems.find((item) => item.item_id === itemId)?.name;
  const included = [...new Set(args.item_ids)];
  const excluded = [...new Set(orderItems.map((item) => item.item_id))].filter(
    (itemId) => !included.some((other) => other === itemId),
  );
  const includedNames = new Set(included.map(nameOf).filter((name): name is string => name !== undefined));
  const decided = { order_id: args.order_id, item_ids: args.item_ids };

  // Every item of the call must be in the list the user confirmed: a yes to the agent's proposal that names it.
  for (const itemId of included) {
    const name = nameOf(itemId);
    const fact = conversation.agreed({
      tool: 'return_delivered_order_items',
      names: name === undefined ? [itemId] : [itemId, name],
      sameTarget,
    });
    const finding = decide(fact, {
      need:
        `the user has not confirmed returning item ${itemId}${name === undefined ? '' : ` (${name})`} of order ${args.order_id}; ` +
        `list the items to be returned and ask the user to confirm them`,
      question: `Did the user confirm returning item ${itemId} of order ${args.order_id}?`,
      missingDenies: true,
    });
    if (finding !== undefined) {
      return { ...finding, facts: { ...finding.facts, ...decided, unconfirmed_item_id: itemId } };
    }
  }

  // No item the user confirmed may be dropped: the confirmed proposal must not name an order item the call leaves out
  // (by its name only where no returned item shares it), other than in words saying it stays.
  for (const itemId of excluded) {
    const name = nameOf(itemId);
    const names = name === undefined || includedNames.has(name) ? [itemId] : [itemId, name];
    const fact = conversation.agreed({ tool: 'return_delivered_order_items', names, sameTarget });
    if (fact.answer === 'yes' && listedToReturn(conversation.messages[fact.proposals[0] ?? -1], names)) {
      return {
        message:
          `The user confirmed returning item ${itemId}${name === undefined ? '' : ` (${name})`} of order ${args.order_id}, ` +
          `but item_ids (${args.item_ids.join(', ')}) leaves it out; item_ids must match exactly the list the user confirmed.`,
        facts: { ...decided, dropped_item_id: itemId, evidence: fact.evidence },
      };
    }
  }
  return undefined;
};
