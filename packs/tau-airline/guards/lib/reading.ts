/**
 * What each message of a conversation says, read once: its lower-case text, the amounts, numbers and payment kinds it
 * names, and the reasons for cancelling it gives. The policies of a call read these instead of the texts, so that a
 * decision touches one small record per message and no text twice.
 */
import type { Message } from 'agentguard';
import type { PaymentMethod } from './records.ts';
import { rememberedBy } from './text.ts';

/** Why a cancellation may be covered by travel insurance: the user's stated reason, as the policy names them. */
export type CancellationReason = 'change_of_plan' | 'airline_cancelled' | 'health' | 'weather' | 'other';

/** A payment method's id and the numbers that name it in a text (the digits ending its id, a card's last four). */
export interface MethodNumbers {
  id: string;
  numbers: readonly string[];
}

/** A dollar amount a text states, and whether "each" or "per passenger" follows it. */
export interface StatedAmount {
  amount: number;
  each: boolean;
}

const reasonPatterns: [CancellationReason, RegExp][] = [
  [
    'health',
    /\b(sick|ill|illness|unwell|health|medical|hospital\w*|injur\w*|surgery|doctor|diagnos\w*|covid|flu|fever|pregnan\w*)\b/,
  ],
  ['weather', /\b(weather|storm\w*|hurricane|snow\w*|blizzard|flood\w*|tornado|typhoon|thunderstorm)\b/],
  [
    'airline_cancelled',
    /\b(airline|you|your company)\b[^.!?]{0,40}\bcancel+ed\b|\bflight (was|got|has been) cancel+ed\b/,
  ],
  [
    'change_of_plan',
    /\bchange (of|in) (my |our )?plans?\b|\bplans? (have |has )?changed\b|\bno longer (need|want|going)\b|\bchanged my mind\b|\bcan(no|')t make it\b/,
  ],
  [
    'other',
    /\b(because|due to|reason|since i|as i|mistake|mistakenly|accident\w*|double[- ]book\w*|schedule|conflict|emergency|so that|in order to|no longer)\b/,
  ],
];

/** The reasons in the lexicon's order, most specific first. */
export const cancellationReasons: readonly CancellationReason[] = reasonPatterns.map(([reason]) => reason);

const refusal =
  /\b(no|don't have( any)?|not( going)? to (share|give)|rather not( say)?|prefer not to)( specific| particular)? reasons?\b|\brather not say\b/;

function amountsIn(text: string): readonly StatedAmount[] {
  const amounts: StatedAmount[] = [];
  for (const match of text.matchAll(/\$\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?(.{0,24})/g)) {
    amounts.push({
      amount: Number(`${(match[1] ?? '').replaceAll(',', '')}${match[2] ?? ''}`),
      each: /^\s*(each|per (passenger|person|traveller|traveler|ticket))/.test(match[3] ?? ''),
    });
  }
  return amounts;
}

function paymentKindsIn(text: string): readonly PaymentMethod['source'][] {
  const kinds: PaymentMethod['source'][] = [];
  if (/gift ?card/.test(text)) kinds.push('gift_card');
  if (text.includes('certificate')) kinds.push('certificate');
  if (/credit card|\bcard (ending|on file)|\bvisa\b|mastercard|\bamex\b|american express|discover/.test(text))
    kinds.push('credit_card');
  return kinds;
}

/**
 * What one message says, each part read when first asked for and then kept; every part is empty or false for a tool
 * result.
 */
export class MessageReading {
  /** Who said it. */
  readonly role: Message['role'];
  readonly #raw: string;
  #text: string | undefined;
  #blank: boolean | undefined;
  #numbers: ReadonlySet<string> | undefined;
  #paymentKinds: readonly PaymentMethod['source'][] | undefined;
  #originalPayment: boolean | undefined;
  #amounts: readonly StatedAmount[] | undefined;
  #reasons: readonly CancellationReason[] | undefined;
  #refusesReason: boolean | undefined;
  #mentionsReason: boolean | undefined;
  #mentionsInsurance: boolean | undefined;
  /** What `mentions` found so far, by word. */
  #mentioned: Map<string, boolean> | undefined;
  /** The methods `namedMethods` was last asked about, and which of them the text names. */
  #named: { methods: readonly MethodNumbers[]; ids: readonly string[] } | undefined;
  /** What `matches` found so far, by pattern source. */
  #matched: Map<string, boolean> | undefined;

  constructor(role: Message['role'], raw: string) {
    this.role = role;
    this.#raw = raw;
  }

  /** The text in lower case (the conversation keeps it in canonical form: plain apostrophes, no invisible characters). */
  get text(): string {
    this.#text ??= this.#raw.toLowerCase();
    return this.#text;
  }

  /** Whether the text is empty or only white space. */
  get blank(): boolean {
    this.#blank ??= this.#raw.trim() === '';
    return this.#blank;
  }

  /** The whole runs of digits in the text. */
  get numbers(): ReadonlySet<string> {
    this.#numbers ??= new Set(this.text.match(/\d+/g));
    return this.#numbers;
  }

  /**
   * The ids of the payment methods the text names by one of their numbers; kept for the last list of methods asked
   * about (one user's, whose record is asked about again by the next decision).
   */
  namedMethods(methods: readonly MethodNumbers[]): readonly string[] {
    if (this.#named?.methods === methods) return this.#named.ids;
    const numbers = this.numbers;
    const ids: string[] = [];
    if (numbers.size > 0) {
      for (const method of methods) if (method.numbers.some((number) => numbers.has(number))) ids.push(method.id);
    }
    this.#named = { methods, ids };
    return ids;
  }

  /** The kinds of payment the text names. */
  get paymentKinds(): readonly PaymentMethod['source'][] {
    this.#paymentKinds ??= paymentKindsIn(this.text);
    return this.#paymentKinds;
  }

  /** Whether the text asks for the original method of payment. */
  get originalPayment(): boolean {
    this.#originalPayment ??= /\b(original|same) (payment|form of payment|method|card)/.test(this.text);
    return this.#originalPayment;
  }

  /** The dollar amounts the text states. */
  get amounts(): readonly StatedAmount[] {
    this.#amounts ??= amountsIn(this.text);
    return this.#amounts;
  }

  /** The reasons for cancelling a user message gives, in the lexicon's order. */
  get reasons(): readonly CancellationReason[] {
    if (this.#reasons === undefined) {
      const text = this.text;
      this.#reasons =
        this.role === 'user' ? cancellationReasons.filter((_, index) => reasonPatterns[index]?.[1].test(text)) : [];
    }
    return this.#reasons;
  }

  /** Whether a user message refuses to give a reason. */
  get refusesReason(): boolean {
    this.#refusesReason ??= this.role === 'user' && refusal.test(this.text);
    return this.#refusesReason;
  }

  /** Whether the text mentions a reason (the agent asking for one). */
  get mentionsReason(): boolean {
    this.#mentionsReason ??= /\breason/i.test(this.#raw);
    return this.#mentionsReason;
  }

  /**
   * Whether the text contains `word` in lower case (an id, a flight number, a name). Each word is looked for once per
   * message: later decisions on the same conversation ask again without reading the text.
   */
  mentions(word: string): boolean {
    this.#mentioned ??= new Map();
    let found = this.#mentioned.get(word);
    if (found === undefined) {
      found = this.text.includes(word.toLowerCase());
      this.#mentioned.set(word, found);
    }
    return found;
  }

  /** Whether `pattern` matches the lower-case text; remembered per pattern when it has no flags (a stateless test). */
  matches(pattern: RegExp): boolean {
    if (pattern.flags !== '') return pattern.test(this.text);
    this.#matched ??= new Map();
    let found = this.#matched.get(pattern.source);
    if (found === undefined) {
      found = pattern.test(this.text);
      this.#matched.set(pattern.source, found);
    }
    return found;
  }

  /** Whether the text mentions travel insurance. */
  get mentionsInsurance(): boolean {
    this.#mentionsInsurance ??= /insurance/i.test(this.#raw);
    return this.#mentionsInsurance;
  }
}

const toolResult = new MessageReading('tool', '');
/** Readings by role, remembered by text: a conversation rebuilt for every call (as framework adapters do) is not read again. */
const readers = {
  system: rememberedBy((text) => new MessageReading('system', text)),
  user: rememberedBy((text) => new MessageReading('user', text)),
  assistant: rememberedBy((text) => new MessageReading('assistant', text)),
};

/**
 * What a message says: read with `Conversation.readEach`, once per message of a conversation and the conversations
 * `before` makes from it, and otherwise remembered by its text (see `rememberedBy`).
 */
export function readMessage(message: Message): MessageReading {
  return message.role === 'tool' ? toolResult : readers[message.role](message.text);
}

/** The reading of no message: where a conversation has no proposal. */
export const nothingSaid: MessageReading = new MessageReading('assistant', '');
