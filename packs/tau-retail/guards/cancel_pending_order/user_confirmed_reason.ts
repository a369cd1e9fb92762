/** `cancel_pending_order.user_confirmed_reason`: The user must have given or confirmed in the conversation the reason for cancellation, either 'no longer needed' or 'ordered by mistake'; the reason argument must match what the user confirmed (the agent must not choose the reason itself). */
import type { PolicyCheck } from 'agentguard';
import type { CancelPendingOrderArgs } from '../../types.ts';
import { decide } from '../lib/dialogue.ts';

/** The two cancellation reasons, each with phrases a user may state it with. */
const reasons: Readonly<Record<CancelPendingOrderArgs['reason'], readonly string[]>> = {
  'no longer needed': [
    'no longer needed',
    'no longer need',
    'not needed anymore',
    'not needed any more',
    "don't need",
    'do not need',
    "don't need it anymore",
    "don't want it anymore",
    'do not want it anymore',
    "won't need",
    'no need for it',
    'changed my mind',
  ],
  'ordered by mistake': [
    'ordered by mistake',
    'by mistake',
    'ordered it by mistake',
    'mistakenly ordered',
    'ordered mistakenly',
    'accidentally',
    'by accident',
    'ordered the wrong',
    'was a mistake',
  ],
};

export const check: PolicyCheck<CancelPendingOrderArgs> = async (args, context) => {
  const fact = context.conversation.reasonGiven(reasons);
  const question = `Did the user give '${args.reason}' as the reason for cancelling order ${args.order_id}?`;
  if (fact.answer === 'yes') {
    if (fact.value === args.reason) return undefined;
    if (fact.value === undefined) {
      return {
        message: `the user must give the reason for cancellation ('no longer needed' or 'ordered by mistake'); it is unclear which reason the user gave, and the call uses '${args.reason}'`,
        facts: { reason: args.reason, order_id: args.order_id, answer: fact.answer, evidence: fact.evidence },
        ask: question,
      };
    }
    return {
      message: `the call cancels order ${args.order_id} with reason '${args.reason}', but the user gave the reason '${fact.value}'; use the reason the user gave`,
      facts: { reason: args.reason, userReason: fact.value, order_id: args.order_id, evidence: fact.evidence },
    };
  }
  return decide(fact, {
    need: `the user must give the reason for cancelling order ${args.order_id} ('no longer needed' or 'ordered by mistake'); the call uses '${args.reason}'`,
    question,
  });
};
