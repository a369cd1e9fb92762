/**
 * The TypeScript declarations of what a policy check receives and returns, as the generator's prompts show them to
 * the model. They restate agentguard's own types (`PolicyCheck`, `GuardContext`, `Conversation`, …) with the
 * comments a check's author needs; `guard-api.test.ts` type-checks them against the real ones, so they cannot drift.
 */
export const guardApiDeclarations = `// From 'agentguard' (import them with \`import type { … } from 'agentguard'\`).

/** A check: returns undefined when the call complies, or a finding when it breaks the policy. */
export type PolicyCheck<Args extends object> = (
  args: Args,
  context: GuardContext,
  call: ToolCall,
) => PolicyFinding | undefined | Promise<PolicyFinding | undefined>;

/** What a check returns when the call breaks the policy, or when what decides it is unsure. */
export interface PolicyFinding {
  /** What is wrong, for the agent, so it can act on it: name the values that decided it. */
  message: string;
  /** The values that decided it (from the arguments, lookups or conversation), for the audit log and review. */
  facts?: Record<string, unknown>;
  /**
   * The question to put to the person when a conversation fact the policy rests on is answered 'unsure' (not 'no'):
   * the call then asks instead of denying. Leave it out for a 'no', and where the policy says a missing fact denies.
   */
  ask?: string;
}

/** The call being checked. \`arguments\` is the same object as the check's \`args\`. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** Everything a check may use besides the call's arguments. */
export interface GuardContext {
  /** The conversation before the call: it ends with the message before the assistant message that makes this call. */
  conversation: Conversation;
  /** Read-only lookups; prefer the typed \`lookup\` helper where the pack offers one. */
  invoker: ToolInvoker;
  /** The policy's clock ("now"). */
  now: Date;
}

/** Runs a read-only lookup; rejects when the lookup fails (no such record, or not a lookup). */
export interface ToolInvoker {
  invoke(tool: string, args: Record<string, unknown>): Promise<unknown>;
  /** The same lookup answered at once where the backend can; optional: \`await invoke(…)\` always works. */
  invokeNow?(tool: string, args: Record<string, unknown>): unknown;
}

export interface SystemMessage {
  role: 'system';
  text: string;
}
export interface UserMessage {
  role: 'user';
  text: string;
}
/** An assistant turn: its text (possibly empty) and the tool calls it made, arguments already parsed. */
export interface AssistantMessage {
  role: 'assistant';
  text: string;
  toolCalls: readonly ToolCall[];
}
/** A tool's answer to a call, as the text the agent saw (often JSON; an error text starts with "Error"). */
export interface ToolResultMessage {
  role: 'tool';
  callId: string;
  name: string;
  content: string;
}
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** A tool call made earlier in the conversation, with the text its tool returned (undefined when none was recorded). */
export interface PastToolCall {
  call: ToolCall;
  result: string | undefined;
  /** Index in \`messages\` of the assistant message that made the call. */
  messageIndex: number;
  /** Index of the call among that message's tool calls. */
  callIndex: number;
}

/** The user's explicit yes and what it answers. */
export interface Confirmation {
  /** The user's last message, an explicit yes ("yes", "I confirm", "please proceed", …). */
  reply: string;
  /** The last assistant text before that reply: what the user agreed to. */
  proposal: string;
  /** Whether that proposal asks the user to confirm (a question, "confirm", "would you like", …). */
  proposalAsks: boolean;
  /** Tool calls made after the reply, before the call being checked. */
  callsSince: readonly PastToolCall[];
}

/** How a conversation fact is answered: a clear 'yes', a clear 'no', or 'unsure' (ask; unsure is not no). */
export type Answer = 'yes' | 'no' | 'unsure';

/** The message (index in \`messages\`) and the words of it that decided an answer. */
export interface Evidence {
  message: number;
  words: readonly string[];
}

/** A conversation fact: the answer, what decided it (latest first), and why it is not yes. */
export interface Fact {
  answer: Answer;
  evidence: readonly Evidence[];
  reason?: string;
}

/** A fact with the value the user gave: the option chosen, the reason given, the value named. */
export interface ValueFact extends Fact {
  value?: string;
}

/** What a call does, so that a yes can be matched to it. */
export interface ProposedCall {
  /** The tool being called: a successful call of it on the same target uses the yes up (one yes, one call). */
  tool: string;
  /** Words that identify the call in the agent's proposal (ids, order numbers, names): it must name one. */
  names: readonly string[];
  /** The action's words as a pattern on the proposal's lower-case text (e.g. /\\bcancel/): matching it also counts. */
  action?: RegExp;
  /** Whether an earlier call's arguments are of the same target; default: any earlier call of \`tool\` is. */
  sameTarget?: (earlierArguments: Record<string, unknown>) => boolean;
}

/** How the domain writes amounts of money (see the pack's domain description, where it has \`amounts\`). */
export interface AmountDescription {
  /** What stands before an amount, e.g. ['$']: "$1,194", "$ 76.50". */
  currency: readonly string[];
  /** Words right after an amount that make it per unit, e.g. ['each', 'per guest']: "$100 each". */
  each?: readonly string[];
}

/** The amount a call moves, to be found among the amounts said around the user's yes. */
export interface AgreedAmount {
  /** What the call charges the user, in the currency's units (positive); a refund is no charge and passes none. */
  amount: number;
  /** The parts it is paid in (one per payment), all of which stated also agree; a part unknown is undefined. */
  parts?: readonly (number | undefined)[];
  /** How many units an amount stated "each" covers (guests, items): "$100 each" also states count × 100. */
  count?: number;
}

/** Items a proposal may list (order lines, legs of a trip) and those the call changes. */
export interface ListedItems {
  /** Every item that may name the call in a proposal: the record's and the call's. */
  items: readonly string[];
  /** The items the call changes. */
  changed: readonly string[];
}

/**
 * The terms a call must keep of what the user agreed to, each answered in the \`Agreement\`: 'yes' when the messages
 * around the yes say it, 'no' only when they say otherwise (another amount, another payment method named, items left
 * out), 'unsure' when they do not say (a proposal need not spell out every detail: unsure is not no; \`unconfirmed\`
 * asks the person about an amount the user was not told).
 */
export interface AgreementTerms {
  /**
   * Whether a call of the tool that the tool rejected is this call but for what the user may correct (the payment,
   * say): the user's message after the rejection ("use my other card then"), or a later yes to a proposal that asks
   * ("Please confirm this payment."), then stands with the yes given before it.
   */
  corrects?: (rejectedArguments: Record<string, unknown>) => boolean;
  /** The tools whose successful call ends what was said before it (every tool that changes records). Default: the tool. */
  changes?: readonly string[];
  /** The amount the call moves and how the domain writes amounts: answered in \`Agreement.amount\`. */
  amount?: AgreedAmount & { description: AmountDescription };
  /** The values the call uses (its payment methods, an address), as for \`stated\`: answered in \`Agreement.values\`, in order. */
  values?: readonly StatedValue[];
  /** The domain description the values are read through (\`domain\` of \`guards/lib/domain-description.ts\`). */
  domain?: DomainDescription;
  /** The items a proposal may list and those the call changes: answered in \`Agreement.items\`. */
  items?: ListedItems;
}

/** The user's agreement to a call, the messages it rests on (indexes in \`messages\`), and the terms asked about. */
export interface Agreement extends Fact {
  /** The user's yes, then the corrected choice when there is one; empty when there is no yes. */
  replies: readonly number[];
  /** The proposal the yes answers, then the agent's messages after the yes. */
  proposals: readonly number[];
  /** What the user said before, since the last successful change. */
  earlierUser: readonly number[];
  /** What the agent said before the proposal, since the last successful change. */
  earlierAgent: readonly number[];
  /** Whether the amount the call moves was stated (asked with \`terms.amount\`; only when there is a yes). */
  amount?: Fact;
  /** Whether each value the call uses is the one named or agreed to (asked with \`terms.values\`, same order). */
  values?: readonly ValueFact[];
  /** Whether the proposal covered every item the call changes (asked with \`terms.items\`). */
  items?: Fact;
}

/** How \`reasonGiven\` may also learn that a reason was given. */
export interface ReasonOptions {
  /**
   * Words that name the matter when the agent asks for it (e.g. ['reason']): the user's answer to an agent message
   * that names it, not blank and not declining, gives a reason too (one of no listed kind: its \`value\` is \`other\` when given).
   */
  asked?: readonly string[];
  /**
   * The value of a reason of no listed kind given in answer to the question for it (see \`asked\`), e.g. 'other'
   * where the policy accepts other reasons.
   */
  other?: string;
}

/** A value the call uses, to look for in what the user said. */
export interface StatedValue {
  /** The value itself, e.g. 'LIS' or 'voucher_1207'. */
  value: string;
  /** Its kind in the pack's domain description (\`domain\` of \`guards/lib/domain-description.ts\`), e.g. 'station'. */
  kind?: string;
  /** The records of that kind the user could have meant, from lookups (the one holding \`value\` among them). */
  records?: readonly Readonly<Record<string, unknown>>[];
  /** The value playing each of the kind's roles in this call, e.g. { original: 'card_5521' }. */
  roles?: Readonly<Record<string, string>>;
  /** The call's other values of the kind (the origin beside the destination): naming one says nothing against it. */
  alongside?: readonly string[];
}

/** A choice among options the agent offered. */
export interface OfferedChoice {
  /** Words that name the matter, e.g. ['gift wrap']. */
  about: readonly string[];
  /** The options by value, each with phrases that name it, e.g. { no: ['no gift wrap', 'without gift wrap'] }. */
  options: Readonly<Record<string, readonly string[]>>;
  /** The option the call takes. */
  value: string;
  /** The option a plain yes picks when the agent asked about the matter ("Would you like gift wrap?"). */
  onYes?: string;
  /** The option a plain no picks, and a clause of the user that refuses the matter ("I don't need it"). */
  onNo?: string;
}

/** How the values of one kind may be referred to (see the pack's domain description). */
export interface ValueKind {
  key: string;
  names?: readonly string[];
  digits?: readonly string[];
  keyDigits?: boolean;
  classes?: { field: string; phrases: Readonly<Record<string, readonly string[]>> };
  orders?: readonly { field: string; lowest?: readonly string[]; highest?: readonly string[] }[];
  roles?: Readonly<Record<string, readonly string[]>>;
}

/** The pack's description of how its domain's values may be referred to. */
export interface DomainDescription {
  kinds: Readonly<Record<string, ValueKind>>;
}

/** The conversation before the call, oldest message first. */
export interface Conversation {
  readonly messages: readonly Message[];
  /** The conversation up to, not including, message \`index\`. */
  before(index: number): Conversation;
  /** Every user message's text, oldest first. */
  userTexts(): readonly string[];
  /** Index in \`messages\` of the last user message, or -1. */
  lastUserIndex(): number;
  /** Every tool call made from message \`from\` on (default 0), with its result. */
  toolCalls(from?: number): PastToolCall[];
  /**
   * How the user message at \`index\` answers: a clear yes, a no (a refusal or hold, a yes taken back or made to wait) or
   * unsure, with the words that decided; undefined when not the user's.
   */
  answerAt(index: number): { answer: 'yes' | 'no' | 'unsure'; words: readonly string[] } | undefined;
  /** Whether the assistant message at \`index\` asks the user to confirm or choose. */
  asksAt(index: number): boolean;
  /** \`read\` applied to every message, oldest first, each message read once (\`read\` must be pure). */
  readEach<Reading>(read: (message: Message) => Reading): readonly Reading[];
  /** The user's explicit yes when the last user message is one; otherwise undefined. */
  confirmation(): Confirmation | undefined;
  /**
   * Did the user agree to the agent's proposal that covers this call? 'yes': the last user message is a clear yes to
   * an assistant message that asks and names one of \`call.names\` or its \`action\`, not used by an earlier call (or
   * a correction after the tool rejected that call, see \`terms.corrects\`); 'no': the user refused, took the yes back
   * or made it wait ("Yes. Actually no", "Yes, but first …"); else 'unsure'. With a yes, each of \`terms\` asked
   * (amount, values, items) is answered on the agreement: whether the call keeps what was agreed.
   */
  agreed(call: ProposedCall, terms?: AgreementTerms): Agreement;
  /**
   * Did the user state this value, literally or as the domain description lets name it among \`records\` ("Lisbon"
   * for LIS, "my voucher", "the card ending in 4242", "the original payment method", "the cheapest one")? 'yes':
   * a user message names it or singles it out; 'no': the latest message naming it refuses it ("not round trip"), or
   * the user singled out another (not one of \`alongside\`); 'unsure': nothing, or several fit.
   * A value that is an ISO date (2025-03-14) is also stated as "March 14, 2025", "14 March 2025", "03/14/2025";
   * digits that read as two dates ("03/04/2025") state neither.
   */
  stated(request: StatedValue, domain?: DomainDescription): ValueFact;
  /**
   * Did the user choose \`choice.value\` among the options the agent offered ('no': another option; \`value\`: which)?
   * A plain yes or no picks \`onYes\` or \`onNo\` only when the agent's question itself names the matter; a clause that
   * refuses the matter ("I don't need gift wrapping") picks \`onNo\`; an option named where its clause refuses it
   * ("don't have it gift wrapped", "standard, not express") is ruled out ('no' when it is \`value\`); a yes to a
   * summary that lists the matter as "Gift wrap: No" takes the option after the colon (its phrase or its key in words).
   * A phrase that is the matter's own words and part of another option's ("gift wrap" beside "no gift wrap") names no
   * option: the user mentioning the matter chooses nothing.
   */
  chose(choice: OfferedChoice): ValueFact;
  /**
   * Did the user give one of these reasons (each with phrases that state it), and which (\`value\`)? 'no' when the user
   * declined to give one; with \`options.asked\`, the user's answer to the agent's question for it is a reason too,
   * whose \`value\` is \`options.other\` when given.
   */
  reasonGiven(reasons: Readonly<Record<string, readonly string[]>>, options?: ReasonOptions): ValueFact;
  /** Did the agent ask the user about the matter (any of \`about\`) before the call? 'yes' or 'no'. */
  askedAbout(about: readonly string[]): Fact;
  /**
   * Did the user ask, on their own, for the matter (any of \`about\`: the domain's words for it)? 'yes': a user
   * message asks for it before the agent raised it; 'no': the user refused it, only took up the agent's offer, or
   * never named it; 'unsure': the user asked only after the agent raised it.
   */
  requested(about: readonly string[]): Fact;
}
`;
