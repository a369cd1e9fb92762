/** `return_delivered_order_items.user_confirmed_order_id`: Before the call, the user must have confirmed in the conversation the order id of the order to return, and order_id must equal the order id the user confirmed. */
import type { PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { decide } from '../lib/dialogue.ts';
import { domain } from '../lib/domain-description.ts';

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  const bareId = args.order_id.startsWith('#') ? args.order_id.slice(1) : args.order_id;

  // Did the user name this order id themselves ("#W2378156", or "W2378156" without the '#')?
  let fact = context.conversation.stated({ value: args.order_id, kind: 'order' }, domain);
  if (fact.answer === 'unsure' && bareId !== args.order_id) {
    const withoutHash = context.conversation.stated({ value: bareId, kind: 'order' }, domain);
    if (withoutHash.answer !== 'unsure') fact = withoutHash;
  }
  if (fact.answer === 'yes') return undefined;

  // Or did the user confirm with a clear yes an agent message that names this order ("Is it order #W2378156?",
  // "I will return ... from order #W2378156. Shall I proceed?")?
  if (fact.answer === 'unsure') {
    const confirmed = context.conversation.agreed({
      tool: 'return_delivered_order_items',
      names: [args.order_id, bareId],
      sameTarget: (earlier) => earlier['order_id'] === args.order_id,
    });
    if (confirmed.answer === 'yes') return undefined;
    if (confirmed.answer === 'no') fact = confirmed;
  }

  const finding = decide(fact, {
    need: `the user must confirm the order id of the order to return, and it must be ${args.order_id}; ask the user to confirm which order they want to return`,
    question: `Did the user confirm that they want to return items from order ${args.order_id}?`,
  });
  if (finding === undefined) return undefined;
  return {
    ...finding,
    facts: { ...finding.facts, order_id: args.order_id },
  };
};
