/**
 * The user's agreement to a call: the yes, the proposal it answers, a corrected choice after the tool rejected the call
 * the yes was given for, and the messages around them that say what was agreed (see `terms.ts` for the questions on
 * them). `Conversation.agreed` is this reading's answer.
 */
import type { PastToolCall } from '../model/conversation.ts';
import type { DomainDescription } from './domain-description.ts';
import type { Fact, StatedValue, Transcript, ValueFact } from './facts.ts';
import { named, said } from './phrases.ts';
import {
  type AgreedAmount,
  type AmountDescription,
  amountAgreed,
  itemsAgreed,
  type ListedItems,
  valueAgreed,
} from './terms.ts';

/** What a call does, so that a yes can be matched to it: the proposal must name one of `names`. */
export interface ProposedCall {
  /** The tool being called: a yes is used up by a successful call of it on the same target. */
  tool: string;
  /** Words that identify the call in the agent's proposal: ids, flight numbers, names, the action's verb. */
  names: readonly string[];
  /** Words of the action, as a pattern on the proposal's lower-case text (e.g. /\bcancel/): naming it also counts. */
  action?: RegExp;
  /** Whether an earlier call's arguments are of the same target; default: any earlier call of `tool` is. */
  sameTarget?: (earlierArguments: Record<string, unknown>) => boolean;
}

/** What else `agreed` reads of an agreement: corrections, where it starts, and the terms the call must keep. */
export interface AgreementTerms {
  /**
   * Whether a call of the tool that the tool rejected is this call apart from what the user may correct (the payment,
   * say): then the user's message after the rejection, unless a refusal, is a corrected choice that stands with the yes
   * given before it, and so does a later yes to a proposal of the agent that asks but names nothing of the call ("Please
   * confirm this payment."), where the user refused nothing in between. Without it, no correction counts.
   */
  corrects?: (rejectedArguments: Record<string, unknown>) => boolean;
  /** The tools whose successful call ends what was said before it (the terms read only what follows). Default: the tool. */
  changes?: readonly string[];
  /** The amount the call moves and how the domain writes amounts: answered in `Agreement.amount`. */
  amount?: AgreedAmount & { description: AmountDescription };
  /** The values the call uses (its payment methods, say): answered in `Agreement.values`, in this order. */
  values?: readonly StatedValue[];
  /** The domain description the values are read through. */
  domain?: DomainDescription;
  /** The items a proposal may list and those the call changes: answered in `Agreement.items`. */
  items?: ListedItems;
}

/**
 * The user's agreement to a call (a `Fact`), the messages that say what was agreed, by index, and, when terms were
 * asked about and there is a yes, whether the call keeps them.
 */
export interface Agreement extends Fact {
  /** The user's yes, then the corrected choice when there is one; empty when there is no yes. */
  replies: readonly number[];
  /** The proposal the yes answers, then the agent's messages after the yes (its questions after a rejected call). */
  proposals: readonly number[];
  /** What the user said before, since the last successful change. */
  earlierUser: readonly number[];
  /** What the agent said before the proposal, since the last successful change. */
  earlierAgent: readonly number[];
  /** Whether the amount the call moves was stated (see `amountAgreed`). */
  amount?: Fact;
  /** Whether each value the call uses is the one named (see `valueAgreed`). */
  values?: readonly ValueFact[];
  /** Whether the proposal covered every item the call changes (see `itemsAgreed`). */
  items?: Fact;
}

function rejected(past: PastToolCall): boolean {
  return past.result?.startsWith('Error') === true;
}

function succeeded(past: PastToolCall): boolean {
  return past.result !== undefined && !rejected(past);
}

/** The index of the last user message before `index`, or -1. */
function userBefore(transcript: Transcript, index: number): number {
  for (let earlier = index - 1; earlier >= 0; earlier--)
    if (transcript.messages[earlier]?.role === 'user') return earlier;
  return -1;
}

const none: Pick<Agreement, 'replies' | 'proposals' | 'earlierUser' | 'earlierAgent'> = {
  replies: [],
  proposals: [],
  earlierUser: [],
  earlierAgent: [],
};

/**
 * The yes a call rests on: the last user message when it is a clear yes; else, when `corrects` says so, the yes before
 * it, if every call of the tool made since was rejected and the last of them is this call but for the correction.
 */
function findYes(
  transcript: Transcript,
  request: ProposedCall,
  terms: AgreementTerms,
): { yes: number; last: number; corrected: boolean } | Fact {
  const last = transcript.lastUserIndex();
  const reading = transcript.answerAt(last);
  if (reading === undefined) return { answer: 'unsure', evidence: [], reason: 'the user has not answered a proposal' };
  const replied = { message: last, words: reading.words };
  if (reading.answer === 'yes') return { yes: last, last, corrected: false };
  if (reading.answer === 'no') return { answer: 'no', evidence: [replied], reason: 'the user did not agree' };
  const unsure: Fact = { answer: 'unsure', evidence: [replied], reason: "the user's last message is not a clear yes" };
  if (terms.corrects === undefined) return unsure;
  const yes = userBefore(transcript, last);
  if (transcript.answerAt(yes)?.answer !== 'yes') return unsure;
  const tried = transcript
    .toolCalls(yes + 1)
    .filter((past) => past.messageIndex < last && past.call.name === request.tool);
  const retried = tried.at(-1);
  if (retried === undefined || !tried.every(rejected) || !terms.corrects(retried.call.arguments)) return unsure;
  // A corrected choice with no words is read as no correction.
  return { yes, last, corrected: said(transcript.messages[last]).trim() !== '' };
}

/**
 * Whether the yes, to a proposal that asks, continues a call the tool rejected (see `AgreementTerms.corrects`): the
 * calls of the tool since `start` and before the user's message `askedFrom` were all rejected, the last of them is this
 * call but for the correction, the user had said yes just before it, and has refused nothing since.
 */
function correctsRejection(
  transcript: Transcript,
  calls: readonly PastToolCall[],
  request: ProposedCall,
  terms: AgreementTerms,
  start: number,
  askedFrom: number,
): boolean {
  if (terms.corrects === undefined) return false;
  const tried = calls.filter(
    (past) => past.call.name === request.tool && past.messageIndex >= start && past.messageIndex < askedFrom,
  );
  const latest = tried.at(-1);
  if (latest === undefined || !tried.every(rejected) || !terms.corrects(latest.call.arguments)) return false;
  if (transcript.answerAt(userBefore(transcript, latest.messageIndex))?.answer !== 'yes') return false;
  for (let at = latest.messageIndex + 1; at <= askedFrom; at++) {
    if (transcript.messages[at]?.role === 'user' && transcript.answerAt(at)?.answer === 'no') return false;
  }
  return true;
}

/**
 * Whether the user agreed to the agent's proposal that covers this call, and what was said around it: the yes (or a
 * corrected choice after the tool rejected the call the yes was given for, see `AgreementTerms.corrects`) answers an assistant message
 * that asks for it, or corrects a call of the same tool the tool had just rejected, and names one of the call's
 * `names` or its `action`; and no successful call of the same tool on the same target has used that yes since. `no`
 * when the last user message refuses, takes a yes back or makes it wait; `unsure` otherwise (no answer, a hedge, a yes
 * to something else or already used). The message lists say what the agreement covers: the replies, the proposals,
 * and what the user and the agent said before, since the last successful call of a tool in `changes`; with a yes,
 * the `terms` asked about are answered from them.
 */
export function agreementTo(transcript: Transcript, request: ProposedCall, terms: AgreementTerms = {}): Agreement {
  const agreement = agreementWithout(transcript, request, terms);
  if (agreement.replies.length === 0) return agreement;
  if (terms.amount !== undefined) {
    agreement.amount = amountAgreed(transcript, agreement, terms.amount, terms.amount.description);
  }
  if (terms.values !== undefined) {
    const domain = terms.domain ?? { kinds: {} };
    agreement.values = terms.values.map((value) => valueAgreed(transcript, agreement, value, domain));
  }
  if (terms.items !== undefined) agreement.items = itemsAgreed(transcript, agreement, terms.items);
  return agreement;
}

/** The agreement, its terms not yet asked about. */
function agreementWithout(transcript: Transcript, request: ProposedCall, terms: AgreementTerms): Agreement {
  const found = findYes(transcript, request, terms);
  if ('answer' in found) return { ...found, ...none };
  const { yes, last, corrected } = found;
  const { messages } = transcript;
  let proposal = -1;
  for (let index = yes - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === 'user') break;
    if (message?.role === 'assistant' && message.text.trim() !== '') {
      proposal = index;
      break;
    }
  }
  const askedFrom = userBefore(transcript, yes);
  const changes = terms.changes ?? [request.tool];
  // The calls are read from the last one back, only as far as needed: the calls since the last user message, then
  // the latest change before the yes that succeeded (where what was said starts to count) and the latest change tried
  // between the user message before the yes and the proposal.
  const calls = transcript.toolCalls();
  let index = calls.length - 1;
  while (index >= 0 && (calls[index] as PastToolCall).messageIndex > last) index--;
  const since = calls.slice(index + 1);
  while (index >= 0 && (calls[index] as PastToolCall).messageIndex >= yes) index--;
  let start: number | undefined;
  let lastTried: PastToolCall | undefined;
  for (; index >= 0; index--) {
    const past = calls[index] as PastToolCall;
    if (start !== undefined && (lastTried !== undefined || past.messageIndex <= askedFrom)) break;
    if (!changes.includes(past.call.name)) continue;
    if (lastTried === undefined && past.messageIndex > askedFrom && past.messageIndex < proposal) lastTried = past;
    if (start === undefined && !rejected(past)) start = past.messageIndex + 1;
  }
  start ??= 0;
  const replies = corrected ? [yes, last] : [yes];
  const proposals = proposal === -1 ? [] : [proposal];
  const earlierUser: number[] = [];
  const earlierAgent: number[] = [];
  for (let at = start; at < last; at++) {
    const role = messages[at]?.role;
    if (at === yes) continue;
    if (role === 'user') earlierUser.push(at);
    else if (role === 'assistant' && at > yes && said(messages[at]).trim() !== '') proposals.push(at);
    else if (role === 'assistant' && at < proposal) earlierAgent.push(at);
  }
  const windows = { replies, proposals, earlierUser, earlierAgent };
  const reading = transcript.answerAt(last);
  const replied = { message: last, words: reading?.words ?? [] };
  const continuesRejected = lastTried?.call.name === request.tool && rejected(lastTried);
  if (!continuesRejected && (proposal === -1 || !transcript.asksAt(proposal))) {
    return {
      answer: 'unsure',
      evidence: [replied],
      reason: "the user's yes does not answer a request to confirm",
      ...windows,
    };
  }
  const proposed = said(messages[proposal]);
  const names = [...named(proposed, request.names)];
  const acted = request.action?.exec(proposed);
  if (acted !== undefined && acted !== null) names.push(acted[0]);
  if (
    names.length === 0 &&
    !continuesRejected &&
    !correctsRejection(transcript, calls, request, terms, start, askedFrom)
  ) {
    return {
      answer: 'unsure',
      evidence: [replied],
      reason: 'the proposal the user said yes to does not name this call',
      ...windows,
    };
  }
  const evidence = proposal === -1 ? [replied] : [replied, { message: proposal, words: names }];
  const used = since.some(
    (past) => past.call.name === request.tool && succeeded(past) && (request.sameTarget?.(past.call.arguments) ?? true),
  );
  if (used) {
    return {
      answer: 'unsure',
      evidence,
      reason: `the user's yes was already used by an earlier \`${request.tool}\``,
      ...windows,
    };
  }
  return { answer: 'yes', evidence, ...windows };
}
