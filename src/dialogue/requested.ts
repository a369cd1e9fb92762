/**
 * Whether the user asked for something, given the words a domain uses for it (compensation, a refund, store credit):
 * yes, no or unsure with the evidence. Only the user's own messages can ask; an agent's offer that the user takes up is
 * not the user asking.
 */
import { type Evidence, type Fact, proposalBefore, type Transcript } from './facts.ts';
import { clauseAround, refusalAt } from './negation.ts';
import { named, places, said } from './phrases.ts';

/** A reply that declines the agent's offer outright ("No, thanks"), not one that only makes a yes wait. */
const declinedOffer =
  /^(no(?! (problem|worries|doubt))|nope|nah|not (really|interested|now)|i'd rather not|i would rather not)\b/u;

/** Words of a clause that ask for the matter rather than only mention it. */
const asking =
  /\?|\b(want|wanted|wants|like|looking for|hoping|hope|expect|expecting|ask|asking|request|requesting|need|get|receive|give|offer|deserve|entitled|claim|seek|seeking|discuss|consider|possible|possibility|any chance|is there|are there|please|how about|what about|could|can|would|will|should|prefer)\b/u;

/** How one user message bears on the matter: asks for it, refuses it, or only mentions it; with the words. */
type Stance = { stance: 'asks' | 'refuses' | 'mentions'; words: string[] };

/** How a user message (lower case) bears on the matter named by `about`; undefined when it names none of it. */
function stanceOf(text: string, about: readonly string[]): Stance | undefined {
  const words = named(text, about);
  if (words.length === 0) return undefined;
  let asks: string[] = [];
  for (const word of words) {
    for (const at of places(text, word)) {
      const refusal = refusalAt(text, at, word);
      if (refusal !== undefined) return { stance: 'refuses', words: [refusal] };
      const clause = clauseAround(text, at, at + word.length);
      if (asks.length === 0 && asking.test(clause.whole))
        asks = [clause.whole.replace(/^[\s,;.!?]+|[\s,;.!?]+$/gu, '')];
    }
  }
  return asks.length > 0 ? { stance: 'asks', words: asks } : { stance: 'mentions', words: [...words] };
}

/**
 * Whether the user asked for the matter named by `about` (the domain's words for it, e.g. `['compensation',
 * 'voucher']`), on their own and before the agent raised it. Only user messages ask; the agent's messages only raise
 * the matter and tool results do not count. The latest user message that refuses the matter ("I don't want a
 * voucher", "no compensation needed") or refuses the agent's offer of it ("No, thanks") decides no. Otherwise:
 *
 * - `yes` when a user message asks for it (names it with words that ask: "I'd like compensation", "Is there any
 *   voucher?") and no assistant message named it before;
 * - `no` when the agent raised it first and the user only answered ("Would you like a certificate?" "Sure"): taking
 *   up an offer is not asking, and the conversation itself shows who raised it, with the offer as evidence;
 * - `no` when no message names it at all: a complaint alone is not a request, and the conversation is all there is to
 *   know (the domain's words must cover how its users ask);
 * - `unsure` when the user asked for it only after the agent raised it: whether the user asked or took up the offer
 *   in other words is for a person to tell; and when the user named it first without words that ask ("Compensation
 *   for my delayed flight.").
 *
 * @example
 * ```ts
 * userRequested(conversation, ['compensation', 'voucher']).answer; // 'yes' after "I want compensation for the delay"
 * ```
 */
export function userRequested(transcript: Transcript, about: readonly string[]): Fact {
  const matter = about[0] ?? 'it';
  let raised: Evidence | undefined;
  let mentioned: Evidence | undefined;
  let asked: { evidence: Evidence; prompted: boolean } | undefined;
  let refused: Evidence | undefined;
  for (const [index, message] of transcript.messages.entries()) {
    if (message.role === 'assistant') {
      const words = named(said(message), about);
      const userFirst = asked !== undefined || mentioned !== undefined;
      if (raised === undefined && !userFirst && words.length > 0) raised = { message: index, words };
      continue;
    }
    if (message.role !== 'user') continue;
    const stance = stanceOf(said(message), about);
    if (stance?.stance === 'refuses') refused = { message: index, words: stance.words };
    else if (stance?.stance === 'asks') {
      refused = undefined;
      asked ??= { evidence: { message: index, words: stance.words }, prompted: raised !== undefined };
    } else if (stance?.stance === 'mentions') {
      if (raised === undefined) mentioned ??= { message: index, words: stance.words };
    } else {
      const offered = named(said(transcript.messages[proposalBefore(transcript, index)]), about).length > 0;
      const reply = transcript.answerAt(index);
      const declined = declinedOffer.exec(said(message));
      if (offered && reply?.answer === 'no' && declined !== null) refused = { message: index, words: [declined[0]] };
      else if (offered && reply?.answer === 'yes') refused = undefined;
    }
  }
  if (refused !== undefined) return { answer: 'no', evidence: [refused], reason: `the user refused ${matter}` };
  if (asked?.prompted === false) return { answer: 'yes', evidence: [asked.evidence] };
  if (mentioned !== undefined)
    return { answer: 'unsure', evidence: [mentioned], reason: `the user named ${matter} without asking for it` };
  if (raised === undefined) return { answer: 'no', evidence: [], reason: `no message asks for ${matter}` };
  if (asked !== undefined)
    return {
      answer: 'unsure',
      evidence: [asked.evidence, raised],
      reason: `the user asked for ${matter} only after the agent raised it`,
    };
  return {
    answer: 'no',
    evidence: [raised],
    reason: `the agent raised ${raised.words[0] ?? matter} before the user asked for it`,
  };
}
