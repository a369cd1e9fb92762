/**
 * Turning conversation facts into a check's answer. Shipped by agentguard into generated packs as
 * `guards/lib/dialogue.ts`: every check that depends on what the user said asks the conversation's questions
 * (`agreed`, `stated`, `chose`, `reasonGiven`, `askedAbout`) and decides with these, instead of matching message text
 * itself. A yes lets the check go on, a no denies with what decided it, and unsure asks the person, unless the policy
 * says a missing fact must deny. This pack's copy, changed in review: `unconfirmed` does not take a yes that another
 * change has acted on since for a call its listing did not name.
 */
import type { Fact, GuardContext, PolicyFinding } from 'agentguard';
import { afterLastChange } from './changes.ts';

/** How a check decides on a fact that is not a yes. */
export interface FactDecision {
  /** What the policy needs, for the agent: e.g. "the user must state the payment method". */
  need: string;
  /** The question to put to the person when the fact is unsure, e.g. "Which payment method did the user choose?". */
  question: string;
  /** Deny an unsure fact too: only where the policy says a missing fact must deny. Default false: unsure asks. */
  missingDenies?: boolean;
}

/** The words that decided a fact, quoted, for the agent. */
function decidedBy(fact: Fact): string {
  const words = fact.evidence.flatMap((evidence) => evidence.words);
  return words.length === 0 ? '' : ` (decided by ${words.map((word) => `"${word}"`).join(', ')})`;
}

/**
 * The finding for a fact: none on a yes; a deny on a no, naming what decided it; on unsure, a finding that asks the
 * person `question` (or denies, where `missingDenies`).
 *
 * @example
 * ```ts
 * const fact = context.conversation.stated({ value: args.payment_id, kind: 'payment_method', records }, domain);
 * return decide(fact, { need: 'the user must choose the payment method', question: 'Did the user choose this payment method?' });
 * ```
 */
export function decide(fact: Fact, { need, question, missingDenies = false }: FactDecision): PolicyFinding | undefined {
  if (fact.answer === 'yes') return undefined;
  const message = `${need}: ${fact.reason ?? `the conversation answers ${fact.answer}`}${decidedBy(fact)}`;
  const facts = { answer: fact.answer, evidence: fact.evidence };
  return fact.answer === 'unsure' && !missingDenies ? { message, facts, ask: question } : { message, facts };
}

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

/**
 * Checks that the user explicitly confirmed this call before it runs (see `Conversation.agreed`): a clear yes to the
 * agent's request that names the action or one of its details, not used by an earlier successful call of the same
 * tool on the same target, nor, when another change has been carried out since, given to a listing that does not name
 * this call's details. A policy that asks for explicit confirmation denies whatever is not a yes: the agent must list
 * the details and ask.
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
  const names = details.filter((detail) => detail !== '');
  const agreement = context.conversation.agreed({ tool, names, action, sameTarget });
  const finding = decide(agreement, {
    need: 'the user has not explicitly confirmed this action; list the action details and ask for a yes first',
    question: 'Did the user explicitly confirm this action?',
    missingDenies: true,
  });
  if (finding !== undefined) return finding;
  // A yes that a change (of any tool, on any order) has acted on since confirms a later call only when the listing it
  // answered names this call's details: "cancel #W1?" - "yes" does not confirm cancelling #W2 after #W1 is cancelled.
  const yes = agreement.replies[0] ?? 0;
  if (afterLastChange(context.conversation) <= yes) return undefined;
  const listing = context.conversation.messages[agreement.proposals[0] ?? -1];
  const listed = listing?.role === 'assistant' ? listing.text.toLowerCase() : '';
  if (names.some((name) => listed.includes(name.toLowerCase()))) return undefined;
  return {
    message:
      "the user's last yes was for an earlier change, already carried out; list this action's details and ask for a yes first",
    facts: { answer: agreement.answer, evidence: agreement.evidence },
  };
}
