/**
 * The two reasons the retail policy allows for cancelling a pending order, with the words of each, and the reason a
 * confirmed listing names. Shared by the cancellation checks; written in review.
 */
import type { GuardContext } from 'agentguard';
import type { CancelPendingOrderArgs } from '../../types.ts';

/** A reason for cancelling, as the tool takes it. */
export type CancellationReason = CancelPendingOrderArgs['reason'];

/** Each reason with the phrases a user or the agent states it with. */
export const cancellationReasons: Readonly<Record<CancellationReason, readonly string[]>> = {
  'no longer needed': [
    'no longer needed',
    'no longer need',
    'not needed anymore',
    'not needed any more',
    'not needed',
    "don't need",
    'do not need',
    'dont need',
    "don't want",
    'do not want',
    'no longer want',
    "won't need",
    'no need for it',
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

/**
 * The reason the agent's listing names when the user's latest message says yes to it and it is about cancelling
 * `orderId` (see `Conversation.agreed`): the one reason whose words it uses. Undefined without such a yes, or when the
 * listing names no reason or both (a listing of several cancellations).
 *
 * @example
 * ```ts
 * confirmedReason(context, '#W2378156'); // 'ordered by mistake' after "Cancel #W2378156, ordered by mistake? (yes)" - "Yes"
 * ```
 */
export function confirmedReason(context: GuardContext, orderId: string): CancellationReason | undefined {
  const { conversation } = context;
  const agreement = conversation.agreed({
    tool: 'cancel_pending_order',
    names: [orderId],
    sameTarget: (earlier) => earlier['order_id'] === orderId,
  });
  const proposal = agreement.answer === 'yes' ? conversation.messages[agreement.proposals[0] ?? -1] : undefined;
  if (proposal?.role !== 'assistant') return undefined;
  const text = proposal.text.toLowerCase();
  const named = (Object.keys(cancellationReasons) as CancellationReason[]).filter((reason) =>
    cancellationReasons[reason].some((phrase) => text.includes(phrase)),
  );
  return named.length === 1 ? named[0] : undefined;
}
