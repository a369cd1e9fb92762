/**
 * The questions a guard asks of the conversation before a call, each answered yes, no or unsure with the evidence
 * (the message and the words that decided). Unsure is not no: a policy whose question is answered unsure asks the
 * person, with `question`, unless its spec says a missing fact must deny.
 */
import type { Message, PastToolCall } from '../model/conversation.ts';
import { type Answer, asksForConfirmation, type ReplyReading } from './affirmation.ts';
import { datesStated, isIsoDate } from './dates.ts';
import type { DomainDescription, ValueKind } from './domain-description.ts';
import { affirmed, mentions, refused } from './negation.ts';
import { named, said, stands } from './phrases.ts';

/** The message and the words of it that decided an answer. */
export interface Evidence {
  /** Index of the message in the conversation. */
  message: number;
  words: readonly string[];
}

/** A question's answer about the conversation, with what decided it. */
export interface Fact {
  answer: Answer;
  /** The messages and words that decided, latest first; empty when nothing in the conversation bears on it. */
  evidence: readonly Evidence[];
  /** Why the answer is not yes, in words for the agent or the person asked; absent on a yes. */
  reason?: string;
}

/** A fact with the value the user gave for it: the option chosen, the reason given. */
export interface ValueFact extends Fact {
  /** The value the user stated or chose, when they did. */
  value?: string;
}

/** What a conversation offers the questions (a `Conversation` does). */
export interface Transcript {
  readonly messages: readonly Message[];
  answerAt(index: number): ReplyReading | undefined;
  asksAt(index: number): boolean;
  toolCalls(from?: number): PastToolCall[];
  lastUserIndex(): number;
}

/** A value to look for in what the user said, and how the domain lets it be referred to. */
export interface StatedValue {
  /** The value the call uses, e.g. `DTW` or `gift_card_7815826`. */
  value: string;
  /** Its kind in the domain description, e.g. `airport`; without one only the value itself counts. */
  kind?: string;
  /** The records of its kind the user could have meant (from lookups), the one holding `value` among them. */
  records?: readonly Readonly<Record<string, unknown>>[];
  /** The value playing each of the kind's roles in this call, e.g. `{ original: 'credit_card_4421486' }`. */
  roles?: Readonly<Record<string, string>>;
  /**
   * The other values of the kind this call uses (the origin beside the destination): the user naming one of them says
   * nothing against `value`.
   */
  alongside?: readonly string[];
}

/** A choice among options the agent offered. */
export interface OfferedChoice {
  /** Words that name the matter, e.g. `['insurance']`: only exchanges about it count. */
  about: readonly string[];
  /** The options by value, each with the phrases that name it, e.g. `{ no: ['no insurance', 'without insurance'] }`. */
  options: Readonly<Record<string, readonly string[]>>;
  /** The option the call takes. */
  value: string;
  /** The option a plain yes picks when the agent asked about the matter ("Would you like insurance?"). */
  onYes?: string;
  /** The option a plain no picks, and a clause of the user that negates the matter ("I don't need insurance"). */
  onNo?: string;
}

/** Index of the last assistant message with text before `index` and after the user message before it, or -1. */
export function proposalBefore(transcript: Transcript, index: number): number {
  for (let at = index - 1; at >= 0; at--) {
    const message = transcript.messages[at];
    if (message?.role === 'user') return -1;
    if (message?.role === 'assistant' && message.text.trim() !== '') return at;
  }
  return -1;
}

/** Whether `record` holds `value` in `field` (compared as text, case aside). */
export function holds(record: Readonly<Record<string, unknown>>, field: string, value: string): boolean {
  const held = record[field];
  return (typeof held === 'string' || typeof held === 'number') && String(held).toLowerCase() === value.toLowerCase();
}

/** A record's text in a field, when it holds text or a number. */
export function text(record: Readonly<Record<string, unknown>>, field: string): string | undefined {
  const held = record[field];
  return typeof held === 'string' || typeof held === 'number' ? String(held) : undefined;
}

/** How `record` itself may be named: its value, a name of it, its digits. */
function namings(kind: ValueKind, record: Readonly<Record<string, unknown>>): string[] {
  const words = [kind.key, ...(kind.names ?? []), ...(kind.digits ?? [])].flatMap((field) => text(record, field) ?? []);
  const digits = kind.keyDigits === true ? text(record, kind.key)?.match(/\d{3,}/g) : undefined;
  return digits === undefined || digits === null ? words : [...words, ...digits];
}

/**
 * The words of `message` (lower case) that name `record` itself (its value, a name of it, its digits) outside a
 * clause that refuses them: "one-way, not round trip" names no round trip (see `mentions`).
 */
export function namesOf(message: string, kind: ValueKind, record: Readonly<Record<string, unknown>>): string[] {
  return affirmed(message, namings(kind, record));
}

/**
 * The classes of the kind (see `ValueKind.classes`) a message names, each with the words that name it: by its phrases,
 * and by its own value in words ("gift_card": "gift card"), outside a clause that refuses them ("not round trip").
 */
export function classesNamed(
  message: string,
  kind: ValueKind,
  records: readonly Readonly<Record<string, unknown>>[],
): [string, string[]][] {
  if (kind.classes === undefined) return [];
  const { field, phrases } = kind.classes;
  const values = new Set([...Object.keys(phrases), ...records.flatMap((record) => text(record, field) ?? [])]);
  return [...values]
    .map((name): [string, string[]] => [name, affirmed(message, [...(phrases[name] ?? []), name.replace(/_/g, ' ')])])
    .filter(([, hits]) => hits.length > 0);
}

/**
 * The records a message refers to without naming them (see `ValueKind`): by role, or by class narrowed by an order,
 * with the words that refer (none in a clause that refuses them); none when it refers to none.
 */
function referred(
  message: string,
  kind: ValueKind,
  records: readonly Readonly<Record<string, unknown>>[],
  roles: Readonly<Record<string, string>>,
): { records: Readonly<Record<string, unknown>>[]; words: string[] } {
  for (const [role, phrases] of Object.entries(kind.roles ?? {})) {
    const hits = affirmed(message, phrases);
    const player = roles[role];
    if (hits.length > 0 && player !== undefined) {
      return { records: records.filter((record) => holds(record, kind.key, player)), words: [...hits] };
    }
  }
  let left = [...records];
  const words: string[] = [];
  const classes = classesNamed(message, kind, records);
  for (const [, hits] of classes) words.push(...hits);
  if (classes.length > 0 && kind.classes !== undefined) {
    const { field } = kind.classes;
    left = left.filter((record) => classes.some(([name]) => holds(record, field, name)));
  }
  for (const order of kind.orders ?? []) {
    for (const [phrases, sign] of [
      [order.lowest ?? [], 1],
      [order.highest ?? [], -1],
    ] as const) {
      const hits = affirmed(message, phrases);
      if (hits.length === 0) continue;
      const ranked = left
        .filter((record) => typeof record[order.field] === 'number')
        .sort((a, b) => sign * ((a[order.field] as number) - (b[order.field] as number)));
      if (ranked[0] !== undefined) return { records: [ranked[0]], words: [...words, ...hits] };
    }
  }
  return words.length > 0 ? { records: left, words } : { records: [], words: [] };
}

/**
 * Whether the user stated `value`, literally or by what the domain description lets name it among `records` (a city
 * for an airport code, "the card ending in 7803", "my gift card", "the original payment method", "the cheapest one");
 * an ISO date (`2001-04-12`) also in any written form that gives its day, month and year ("April 12, 2001", "12 April
 * 2001", "04/13/2001"; digits that read as two dates, "04/12/2001", state neither: see `datesStated`).
 * `yes` when a user message names it or singles it out; `no` when the latest user message that names it names it
 * only in a clause that refuses it ("one-way, not round trip"), or, where none names it, the latest user message that
 * refers to the kind singles out another (not one the call uses `alongside`); `unsure` when it leaves several (this
 * one among them) or nothing refers to the kind. Names in a refusing clause name nothing (see `mentions`).
 */
export function statedValue(transcript: Transcript, request: StatedValue, domain?: DomainDescription): ValueFact {
  const kind = request.kind === undefined ? undefined : domain?.kinds[request.kind];
  const records = request.records ?? [];
  const mine = (record: Readonly<Record<string, unknown>>) =>
    kind !== undefined && holds(record, kind.key, request.value);
  const besides = (record: Readonly<Record<string, unknown>>) =>
    kind !== undefined && (request.alongside ?? []).some((value) => holds(record, kind.key, value));
  const dated = isIsoDate(request.value);
  // The value itself and how its own records may be named: one reading of each message serves the refusal and the yes.
  const namingsOfValue = [
    request.value,
    ...(kind === undefined ? [] : records.filter(mine).flatMap((record) => namings(kind, record))),
  ];
  let otherwise: ValueFact | undefined;
  for (let index = transcript.messages.length - 1; index >= 0; index--) {
    const message = transcript.messages[index];
    if (message?.role !== 'user') continue;
    const lower = said(message);
    const literal = named(lower, [request.value]);
    const mentioned = mentions(lower, namingsOfValue);
    if (mentioned.length > 0 && !mentioned.some((mention) => mention.affirmed))
      return {
        answer: 'no',
        evidence: [{ message: index, words: mentioned.flatMap((mention) => mention.refusals) }],
        reason: `the user ruled out \`${request.value}\``,
      };
    if (literal.length > 0)
      return { answer: 'yes', evidence: [{ message: index, words: literal }], value: request.value };
    const date = dated ? datesStated(message).filter(({ date }) => date === request.value) : [];
    if (date.length > 0)
      return {
        answer: 'yes',
        evidence: [{ message: index, words: date.map(({ words }) => words) }],
        value: request.value,
      };
    if (kind === undefined) continue;
    // The value is not in the message (the literal would have answered): what stands unrefused names its records.
    const own = mentioned.filter((mention) => mention.affirmed).map((mention) => mention.phrase);
    if (own.length > 0) return { answer: 'yes', evidence: [{ message: index, words: own }], value: request.value };
    const others = records.flatMap((record) => {
      if (mine(record) || besides(record)) return [];
      const words = namesOf(lower, kind, record);
      return words.length > 0 ? [{ record, words }] : [];
    });
    const found =
      others.length > 0
        ? { records: others.map(({ record }) => record), words: others.flatMap(({ words }) => words) }
        : referred(lower, kind, records, request.roles ?? {});
    if (found.records.length === 0) continue;
    const evidence = [{ message: index, words: found.words }];
    const fits = found.records.some(mine);
    if (fits && found.records.length === 1) return { answer: 'yes', evidence, value: request.value };
    if (otherwise !== undefined) continue;
    const other =
      found.records.length === 1 ? text(found.records[0] as Readonly<Record<string, unknown>>, kind.key) : undefined;
    otherwise = fits
      ? { answer: 'unsure', evidence, reason: `what the user said fits \`${request.value}\` and others` }
      : {
          answer: 'no',
          evidence,
          reason: `the user named ${other === undefined ? 'other values' : `\`${other}\``}, not \`${request.value}\``,
          ...(other === undefined ? {} : { value: other }),
        };
  }
  return otherwise ?? { answer: 'unsure', evidence: [], reason: `the user has not stated \`${request.value}\`` };
}

/** What a message says of the options: those it names unrefused, each with its words, and those it only rules out. */
interface OptionsNamed {
  named: [string, string[]][];
  ruledOut: [string, string[]][];
}

/**
 * The options `text` (lower case) names by their phrases, apart from those it names only where their clause refuses
 * them ("I do not wish to add travel insurance", "not round trip"; see `mentions`): those are ruled out.
 */
function optionsIn(text: string, options: Readonly<Record<string, readonly string[]>>): OptionsNamed {
  const named: [string, string[]][] = [];
  const ruledOut: [string, string[]][] = [];
  for (const [option, phrases] of Object.entries(options)) {
    const found = mentions(text, phrases);
    const affirmed = found.filter((mention) => mention.affirmed).map((mention) => mention.phrase);
    if (affirmed.length > 0) named.push([option, affirmed]);
    else if (found.length > 0) ruledOut.push([option, found.flatMap((mention) => mention.refusals)]);
  }
  return { named, ruledOut };
}

/** The one option `text` (lower case) names unrefused, or undefined when it names none or several. */
function optionNamed(
  text: string,
  options: Readonly<Record<string, readonly string[]>>,
): [string, string[]] | undefined {
  const { named } = optionsIn(text, options);
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The one option the agent's message lists for the matter as "Matter: value" ("- **Travel insurance:** No", "Trip
 * type: One Way"): on a line, the words after a colon that follows the matter's words name it, by one of its phrases
 * or by its value in words (`one_way`: "one way"). Undefined when no line lists the matter, or lines list several.
 */
function optionListed(message: string, choice: OfferedChoice): [string, string[]] | undefined {
  const spelled = Object.fromEntries(
    Object.entries(choice.options).map(([option, phrases]) => [option, [...phrases, option.replace(/_/g, ' ')]]),
  );
  const listed = new Map<string, string[]>();
  for (const line of message.split('\n')) {
    const parts = line.split(':');
    for (let at = 1; at < parts.length; at++) {
      const matter = (parts[at - 1] ?? '').split(/[,;.!?]/u).at(-1) ?? '';
      if (named(matter, choice.about).length === 0) continue;
      const option = optionNamed((parts[at] ?? '').split(/[,;.!?]/u)[0] ?? '', spelled);
      if (option !== undefined) listed.set(option[0], [...(listed.get(option[0]) ?? []), ...option[1]]);
    }
  }
  return listed.size === 1 ? [...listed][0] : undefined;
}

/**
 * The one option an agent's summary settles on: the one it lists for the matter (see `optionListed`; the line that
 * lists the matter decides, though its label may name an option too), else the one it names unrefused.
 */
function optionSummed(message: string, choice: OfferedChoice): [string, string[]] | undefined {
  return optionListed(message, choice) ?? optionNamed(message, choice.options);
}

/**
 * Whether a sentence of the agent's message that asks (see `asksForConfirmation`) names the matter: "Would you like
 * insurance?" does; a summary that lists the matter and asks "Shall I proceed?" does not.
 */
function asksAbout(message: string, about: readonly string[]): boolean {
  return message
    .split(/(?<=[.?!])\s+|\n+/u)
    .some((sentence) => named(sentence, about).length > 0 && asksForConfirmation(sentence));
}

/**
 * What the user's own message settles among the options: the one option it names unrefused, else the matter's `onNo`
 * when a clause of it refuses the matter ("I do not wish to add travel insurance"; see `mentions`) and rules out no
 * `onNo`; undefined when it settles nothing.
 */
function optionSaid(text: string, choice: OfferedChoice, found: OptionsNamed): [string, string[]] | undefined {
  if (found.named.length === 1) return found.named[0];
  if (found.named.length > 0 || choice.onNo === undefined) return undefined;
  if (found.ruledOut.some(([option]) => option === choice.onNo)) return undefined;
  const declining = refused(text, choice.about);
  return declining === undefined ? undefined : [choice.onNo, [declining]];
}

/** Lower case, spaces collapsed: how a phrase is compared with another. */
function phraseKey(phrase: string): string {
  return phrase.trim().toLowerCase().replace(/\s+/gu, ' ');
}

/**
 * The choice without option phrases that are the matter's own words and stand in another option's phrase ("insurance"
 * among the phrases of buying insurance, beside "no insurance"): those name the matter, not an option, and the user
 * mentioning it ("regardless of the insurance") chooses nothing.
 */
function withoutMatter(choice: OfferedChoice): OfferedChoice {
  const matter = new Set(choice.about.map(phraseKey));
  const options = Object.entries(choice.options).map(([option, phrases]): [string, readonly string[]] => {
    const othersPhrases = Object.entries(choice.options)
      .filter(([other]) => other !== option)
      .flatMap(([, others]) => others.map(phraseKey));
    const inOther = (phrase: string) => othersPhrases.some((other) => stands(other, phraseKey(phrase)));
    return [option, phrases.filter((phrase) => !(matter.has(phraseKey(phrase)) && inOther(phrase)))];
  });
  return { ...choice, options: Object.fromEntries(options) };
}

/**
 * Whether the user chose `value` among the options the agent offered on a matter (insurance, a cabin, a payment
 * method). The latest exchange about the matter decides: the user naming an option, or answering yes or no to an
 * agent message that names one option or lists it for the matter ("Travel insurance: No"; a summary: the yes takes
 * it) or whose question names the matter (`onYes`, `onNo`; a yes to "Shall I proceed?" after a summary that lists
 * the matter under other words is not a yes to the matter), or the user refusing the matter in a clause of their own
 * ("I don't need travel insurance": `onNo`). An option named where its clause refuses it ("I do not wish to add
 * travel insurance", "one-way, not round trip") is ruled out, not chosen; a negation inside an option's own phrase
 * ("no insurance") is the option; the matter's own words within another option's phrase name no option. `yes` when
 * what was settled is `value`, `no` when it is another option or the user ruled `value` out, `unsure` when nothing
 * about the matter was settled.
 */
export function choseOption(transcript: Transcript, offered: OfferedChoice): ValueFact {
  const choice = withoutMatter(offered);
  for (let index = transcript.messages.length - 1; index >= 0; index--) {
    const message = transcript.messages[index];
    if (message?.role !== 'user') continue;
    const lower = said(message);
    const proposal = proposalBefore(transcript, index);
    const asked = said(transcript.messages[proposal]);
    const aboutHere = named(lower, choice.about).length > 0 || named(asked, choice.about).length > 0;
    if (!aboutHere) continue;
    const options = optionsIn(lower, choice.options);
    let picked = optionSaid(lower, choice, options);
    let evidence: Evidence[] = picked === undefined ? [] : [{ message: index, words: picked[1] }];
    const reading = transcript.answerAt(index);
    if (picked === undefined && reading !== undefined && reading.answer !== 'unsure') {
      const summary = optionSummed(asked, choice);
      const plain = reading.answer === 'yes' ? choice.onYes : choice.onNo;
      if (reading.answer === 'yes' && summary !== undefined) picked = summary;
      else if (plain !== undefined && transcript.asksAt(proposal) && asksAbout(asked, choice.about))
        picked = [plain, []];
      if (picked !== undefined) {
        evidence = [
          { message: index, words: reading.words },
          { message: proposal, words: picked[1].length > 0 ? picked[1] : named(asked, choice.about) },
        ];
      }
    }
    if (picked === undefined && options.named.length === 0 && options.ruledOut.length > 0) {
      const words = options.ruledOut.flatMap(([, refusals]) => refusals);
      const [out] = options.ruledOut.find(([option]) => option === choice.value) ?? [];
      if (out !== undefined)
        return { answer: 'no', evidence: [{ message: index, words }], reason: `the user ruled out \`${out}\`` };
      return {
        answer: 'unsure',
        evidence: [{ message: index, words }],
        reason: `the user ruled out ${options.ruledOut.map(([option]) => `\`${option}\``).join(', ')} without choosing another`,
      };
    }
    if (picked === undefined) continue;
    const [option] = picked;
    if (option === choice.value) return { answer: 'yes', evidence, value: option };
    return { answer: 'no', evidence, value: option, reason: `the user chose \`${option}\`, not \`${choice.value}\`` };
  }
  return {
    answer: 'unsure',
    evidence: [],
    reason: `the user has not chosen among the options on ${choice.about[0] ?? 'this'}`,
  };
}

/** Words that decline to give a reason, whatever the reasons of the domain. */
const declined =
  /\b(no|don't have( any)?|do not have( any)?|not( going)? to (share|give)|rather not( say)?|prefer not to)( specific| particular)? reasons?\b|\b(rather|prefer) not (to )?say\b/u;

/** How `reasonGiven` may also learn that a reason was given. */
export interface ReasonOptions {
  /**
   * Words that name the matter when the agent asks for the reason (e.g. `['reason']`): a user message after an
   * assistant message that names it, not blank and not declining, gives a reason too, one of no listed kind (its
   * `value` is `other`).
   */
  asked?: readonly string[];
  /**
   * The value of a reason of no listed kind given in answer to the agent's question (see `asked`), e.g. `'other'`;
   * without it such a reason has no `value`.
   */
  other?: string;
}

/**
 * Whether the user gave one of `reasons` (each with the phrases that state it), and which: the latest user message
 * that states one, or declines to give any ("no specific reason", "I'd rather not say"), decides. `yes` with the
 * reason as `value`; `no` when the user declined; else `yes` with `ReasonOptions.other` as `value` when the user
 * answered the agent's question for the reason (see `ReasonOptions.asked`); `unsure` when no user message states any.
 */
export function gaveReason(
  transcript: Transcript,
  reasons: Readonly<Record<string, readonly string[]>>,
  options: ReasonOptions = {},
): ValueFact {
  for (let index = transcript.messages.length - 1; index >= 0; index--) {
    const message = transcript.messages[index];
    if (message?.role !== 'user') continue;
    const lower = said(message);
    const refused = declined.exec(lower);
    if (refused !== null) {
      return {
        answer: 'no',
        evidence: [{ message: index, words: [refused[0]] }],
        reason: 'the user declined to give a reason',
      };
    }
    for (const [reason, phrases] of Object.entries(reasons)) {
      const words = named(lower, phrases);
      if (words.length > 0) return { answer: 'yes', evidence: [{ message: index, words }], value: reason };
    }
  }
  const asked = answeredQuestion(transcript, options.asked ?? []);
  if (asked !== undefined && options.other !== undefined) return { ...asked, value: options.other };
  return asked ?? { answer: 'unsure', evidence: [], reason: 'the user has not given a reason' };
}

/** A yes when a user message, not blank, follows the first assistant message that names one of `about`. */
function answeredQuestion(transcript: Transcript, about: readonly string[]): ValueFact | undefined {
  if (about.length === 0) return undefined;
  const { messages } = transcript;
  const asked = messages.findIndex((message) => message.role === 'assistant' && named(said(message), about).length > 0);
  if (asked === -1) return undefined;
  for (let index = asked + 1; index < messages.length; index++) {
    const message = messages[index];
    if (message?.role !== 'user' || message.text.trim() === '') continue;
    return {
      answer: 'yes',
      evidence: [
        { message: index, words: [] },
        { message: asked, words: named(said(messages[asked]), about) },
      ],
    };
  }
  return undefined;
}

/**
 * Whether the agent asked the user about a matter (named by any of `about`) before the call: an assistant message
 * that asks (see `asksForConfirmation`) and names it. `yes` with that message; `no` when no such message stands (the
 * conversation is all there is to know).
 */
export function askedAbout(transcript: Transcript, about: readonly string[]): Fact {
  for (let index = transcript.messages.length - 1; index >= 0; index--) {
    if (transcript.messages[index]?.role !== 'assistant' || !transcript.asksAt(index)) continue;
    const words = named(said(transcript.messages[index]), about);
    if (words.length > 0) return { answer: 'yes', evidence: [{ message: index, words }] };
  }
  return { answer: 'no', evidence: [], reason: `the agent did not ask the user about ${about[0] ?? 'it'}` };
}
