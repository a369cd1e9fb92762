/**
 * The retail tools that change an order or the profile, and where the conversation since the last change carried out
 * starts: what was said before it was about a request already done. Written in review.
 */
import type { Conversation, Fact } from 'agentguard';

/** The tools that change an order or the user's profile. */
export const changeTools: ReadonlySet<string> = new Set([
  'cancel_pending_order',
  'exchange_delivered_order_items',
  'modify_pending_order_address',
  'modify_pending_order_items',
  'modify_pending_order_payment',
  'modify_user_address',
  'return_delivered_order_items',
]);

/**
 * Whether a change call changed nothing: the tool answered with an error, or what stands in place of its result is a
 * refusal (a guard's feedback, a person's refusal). Retail's change tools answer a change carried out with the changed
 * order or user, as JSON. A call without a result yet counts as a change (only-once rules fail closed).
 *
 * @example
 * ```ts
 * changedNothing('Error: non-exchangeable status'); // true
 * changedNothing('{"order_id": "#W1", "status": "exchange requested"}'); // false
 * ```
 */
export function changedNothing(result: string | undefined): boolean {
  return result !== undefined && !result.trimStart().startsWith('{');
}

/**
 * The index of the first message after the last change that succeeded (0 when none did).
 *
 * @example
 * ```ts
 * const start = afterLastChange(context.conversation); // the user's words from `start` on are about this request
 * ```
 */
export function afterLastChange(conversation: Conversation): number {
  let start = 0;
  for (const past of conversation.toolCalls()) {
    const succeeded = past.result !== undefined && !changedNothing(past.result);
    if (changeTools.has(past.call.name) && succeeded) start = past.messageIndex + 1;
  }
  return start;
}

/** Whether a fact is a yes that the user's words from message `start` on decide (see `afterLastChange`). */
export function saidSince(fact: Fact, start: number): boolean {
  return fact.answer === 'yes' && fact.evidence.some((evidence) => evidence.message >= start);
}
