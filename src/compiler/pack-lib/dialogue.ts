/**
 * Reading a confirmation in the conversation, the way a reasonable reviewer reads it. Shipped by agentguard into
 * generated packs as `guards/lib/dialogue.ts`, so generated checks share one tested reading instead of each writing
 * its own.
 */
import type { GuardContext, PolicyFinding } from 'agentguard';

/** What a confirmation must be about. */
export interface ConfirmedAction {
  /** Words that name the action in the assistant's proposal, e.g. /\bcancel/ for a cancellation. */
  action: RegExp;
  /**
   * Details of the call that identify it (an id, a flight number, a name): a proposal that names one of them is about
   * this action even without the action's words. Not every argument: a proposal need not spell out each value.
   */
  details: readonly string[];
}

/** When the user's last message reads as no, the words that decided it, to tell the agent; else nothing. */
function readAsNo(context: GuardContext): string {
  const reply = context.conversation.answerAt(context.conversation.lastUserIndex());
  if (reply?.answer !== 'no') return '';
  return ` (the user's last message reads as no: ${reply.words.map((word) => `"${word}"`).join(', ')})`;
}

/**
 * Checks that the user explicitly confirmed this action before it runs: the last user message is a clear yes (nothing
 * after it takes it back or makes it wait), it answers an assistant message that asks for confirmation, that message
 * names the action or one of its details, and that yes was not already used by an earlier successful call of the same
 * tool on the same target. Returns undefined when confirmed, else a finding that tells the agent what to do (with the
 * words that decided when the user's last message reads as no).
 *
 * @example
 * ```ts
 * return unconfirmed(context, 'cancel_reservation', { action: /\bcancel/, details: [args.reservation_id] },
 *   (earlier) => earlier.reservation_id === args.reservation_id);
 * ```
 */
export function unconfirmed(
  context: GuardContext,
  tool: string,
  { action, details }: ConfirmedAction,
  sameTarget: (earlierArguments: Record<string, unknown>) => boolean,
): PolicyFinding | undefined {
  const confirmation = context.conversation.confirmation();
  const ask = 'list the action details and ask for a yes first';
  if (confirmation === undefined) {
    return { message: `the user has not explicitly confirmed this action${readAsNo(context)}: ${ask}` };
  }
  if (!confirmation.proposalAsks) {
    return { message: `the user's yes does not answer a request for confirmation: ${ask}` };
  }
  const proposal = confirmation.proposal.toLowerCase();
  const named = details.some((detail) => detail !== '' && proposal.includes(detail.toLowerCase()));
  if (!action.test(proposal) && !named) {
    return { message: `the message the user said yes to is not about this action: ${ask}` };
  }
  const reused = confirmation.callsSince.some(
    (earlier) =>
      earlier.call.name === tool &&
      earlier.result !== undefined &&
      !earlier.result.startsWith('Error') &&
      sameTarget(earlier.call.arguments),
  );
  return reused
    ? { message: `the user's yes was already used for an earlier \`${tool}\` call on the same target: ask again` }
    : undefined;
}
