/** `modify_pending_order_items.reminded_to_confirm_all_items`: Before the call, the agent must have reminded the user to confirm that they have provided all items they want modified in this order (since the tool can be called only once), and the user must have confirmed that the list is complete. */
import type { Fact, PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';
import { decide } from '../lib/dialogue.ts';

/** Words of the agent's reminder that the items can be modified only once and must all be given now. */
const reminder: readonly string[] = [
  'all the items',
  'all items',
  'all of the items',
  'any other items',
  'other items',
  'any other item',
  'anything else you want to modify',
  'anything else to modify',
  'only once',
  'just once',
  'one time',
];

/** How the user answers whether the list of items is complete. */
const answers: Readonly<Record<string, readonly string[]>> = {
  complete: [
    "that's all",
    'that is all',
    "that's everything",
    'that is everything',
    'all the items',
    'nothing else',
    'no other items',
    'no other item',
    'no more',
    'only the',
    'just the',
    'only that',
    'only those',
    'those are all',
    'that is the only',
    "that's the only",
  ],
  more: ['also', 'too', 'another', 'one more', 'more items', 'later', 'not sure', 'might', 'maybe', 'wait'],
};

/** The index of the latest message that decided a fact, or -1. */
function latest(fact: Fact): number {
  return fact.evidence.reduce((top, evidence) => Math.max(top, evidence.message), -1);
}

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  const conversation = context.conversation;
  // A reminder and answer given before an earlier item modification belong to that modification, not to this one.
  const earlier = conversation
    .toolCalls()
    .filter(
      (past) => past.call.name === 'modify_pending_order_items' && !(past.result ?? '').trimStart().startsWith('Error'),
    );
  const since = earlier.reduce((top, past) => Math.max(top, past.messageIndex), -1);

  const asked = conversation.askedAbout(reminder);
  if (asked.answer !== 'yes' || (since >= 0 && latest(asked) <= since)) {
    return {
      message: `before modifying the items of order ${args.order_id}, the agent must remind the user that items can be modified only once and ask them to confirm they have given all the items to modify; no such reminder was given${since >= 0 ? ' since the last item modification' : ''}`,
      facts: {
        order_id: args.order_id,
        item_ids: args.item_ids,
        asked: asked.answer,
        evidence: asked.evidence,
        lastModificationMessage: since,
      },
    };
  }

  const confirmed = conversation.chose({
    about: reminder,
    options: answers,
    value: 'complete',
    onYes: 'complete',
  });
  if (confirmed.answer === 'yes' && since >= 0 && latest(confirmed) <= since) {
    return {
      message: `the user's confirmation that all items were given belongs to an earlier item modification, not to this one for order ${args.order_id}; remind the user and ask again`,
      facts: { order_id: args.order_id, evidence: confirmed.evidence, lastModificationMessage: since },
    };
  }
  const finding = decide(confirmed, {
    need: `the user must confirm that they have given all the items to modify in order ${args.order_id} (items can be modified only once)`,
    question: `Did the user confirm that ${args.item_ids.join(', ')} are all the items they want to modify in order ${args.order_id}?`,
  });
  if (finding === undefined) return undefined;
  return {
    ...finding,
    facts: { ...finding.facts, order_id: args.order_id, item_ids: args.item_ids, chosen: confirmed.value ?? null },
  };
};
