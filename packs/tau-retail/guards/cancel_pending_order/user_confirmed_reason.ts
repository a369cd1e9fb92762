/** `cancel_pending_order.user_confirmed_reason`: The user must have given or confirmed in the conversation the reason for cancellation, either 'no longer needed' or 'ordered by mistake'; the reason argument must match what the user confirmed (the agent must not choose the reason itself). */
import type { PolicyCheck } from 'agentguard';
import type { CancelPendingOrderArgs } from '../../types.ts';
import { cancellationReasons, confirmedReason } from '../lib/cancellation.ts';
import { decide } from '../lib/dialogue.ts';

export const check: PolicyCheck<CancelPendingOrderArgs> = async (args, context) => {
  // The user said yes to the agent's listing of this cancellation with this reason: the reason is confirmed, even
  // where the user's own words gave several reasons (one for each order to cancel).
  if (confirmedReason(context, args.order_id) === args.reason) return undefined;
  const fact = context.conversation.reasonGiven(cancellationReasons);
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
