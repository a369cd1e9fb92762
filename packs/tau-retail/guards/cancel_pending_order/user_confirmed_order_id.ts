/** `cancel_pending_order.user_confirmed_order_id`: The user must have confirmed in the conversation the order id to cancel; the order_id argument must match the order id the user confirmed. */
import type { PolicyCheck } from 'agentguard';
import type { CancelPendingOrderArgs } from '../../types.ts';
import { decide } from '../lib/dialogue.ts';
import { domain } from '../lib/domain-description.ts';

export const check: PolicyCheck<CancelPendingOrderArgs> = async (args, context) => {
  const orderId = args.order_id;

  // The user named this order id themselves ("Please cancel order #W2378156", "yes, #W9571698").
  const stated = context.conversation.stated({ value: orderId, kind: 'order' }, domain);
  if (stated.answer === 'yes') return undefined;

  // Or the user said yes to the agent's question that names this order id ("Is it order #W1651562?" - "Yes, that one.").
  const agreed = context.conversation.agreed({
    tool: 'cancel_pending_order',
    names: orderId === '' ? [] : [orderId],
    sameTarget: (earlier) => earlier.order_id === orderId,
  });
  if (agreed.answer === 'yes') return undefined;

  // Otherwise: a 'no' (the user named another order) denies; nothing clear asks the person.
  const finding = decide(stated, {
    need: `the user must confirm the order id to cancel, but did not confirm ${orderId}`,
    question: `Did the user confirm that order ${orderId} is the order to cancel?`,
  });
  if (finding === undefined) return undefined;
  return {
    ...finding,
    facts: {
      order_id: orderId,
      stated: stated.answer,
      statedEvidence: stated.evidence,
      ...(stated.value === undefined ? {} : { userNamed: stated.value }),
      agreed: agreed.answer,
      agreedEvidence: agreed.evidence,
    },
  };
};
