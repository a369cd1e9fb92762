/** `cancel_pending_order.explicit_confirmation_before_cancel`: Before calling cancel_pending_order the agent must have listed the cancellation details (order id, items, reason, refund to the original payment method) to the user, and the user's latest message must explicitly confirm with 'yes' to proceed. */
import type { PolicyCheck } from 'agentguard';
import type { CancelPendingOrderArgs } from '../../types.ts';
import { unconfirmed } from '../lib/dialogue.ts';

/** The two cancellation reasons, each with phrases a user states it with. */
const reasons: Readonly<Record<CancelPendingOrderArgs['reason'], readonly string[]>> = {
  'no longer needed': [
    'no longer needed',
    'no longer need',
    "don't need",
    'do not need',
    'dont need',
    'not needed',
    "don't want",
    'do not want',
    'no longer want',
    'changed my mind',
  ],
  'ordered by mistake': [
    'ordered by mistake',
    'by mistake',
    'mistakenly',
    'accidentally',
    'by accident',
    'ordered the wrong',
    'was a mistake',
  ],
};

export const check: PolicyCheck<CancelPendingOrderArgs> = async (args, context) => {
  const notConfirmed = unconfirmed(
    context,
    'cancel_pending_order',
    { action: /\bcancel/, details: [args.order_id] },
    (earlier) => earlier['order_id'] === args.order_id,
  );
  if (notConfirmed !== undefined) return notConfirmed;

  // The yes covers the details the user agreed to: a reason the user gave that differs from the call's is not confirmed.
  const given = context.conversation.reasonGiven(reasons);
  if (given.answer === 'yes' && given.value !== undefined && given.value !== args.reason) {
    return {
      message:
        `The user confirmed cancelling order ${args.order_id} for the reason '${given.value}', ` +
        `but the call uses the reason '${args.reason}'; list the details with the confirmed reason and ask for a yes again.`,
      facts: {
        order_id: args.order_id,
        reason_in_call: args.reason,
        reason_given_by_user: given.value,
        evidence: given.evidence,
      },
    };
  }
  return undefined;
};
