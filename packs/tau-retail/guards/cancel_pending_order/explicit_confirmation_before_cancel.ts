/** `cancel_pending_order.explicit_confirmation_before_cancel`: Before calling cancel_pending_order the agent must have listed the cancellation details (order id, items, reason, refund to the original payment method) to the user, and the user's latest message must explicitly confirm with 'yes' to proceed. */
import type { PolicyCheck } from 'agentguard';
import type { CancelPendingOrderArgs } from '../../types.ts';
import { confirmedReason } from '../lib/cancellation.ts';
import { unconfirmed } from '../lib/dialogue.ts';

export const check: PolicyCheck<CancelPendingOrderArgs> = async (args, context) => {
  const notConfirmed = unconfirmed(
    context,
    'cancel_pending_order',
    { action: /\bcancel/, details: [args.order_id] },
    (earlier) => earlier['order_id'] === args.order_id,
  );
  if (notConfirmed !== undefined) return notConfirmed;

  // The yes covers the details listed: a listing that names another reason than the call's did not confirm this call.
  const listed = confirmedReason(context, args.order_id);
  if (listed !== undefined && listed !== args.reason) {
    return {
      message:
        `The user confirmed cancelling order ${args.order_id} for the reason '${listed}', ` +
        `but the call uses the reason '${args.reason}'; list the details with the confirmed reason and ask for a yes again.`,
      facts: { order_id: args.order_id, reason_in_call: args.reason, reason_confirmed: listed },
    };
  }
  return undefined;
};
