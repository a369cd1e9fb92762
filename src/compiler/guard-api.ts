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
  /** Words that identify the call in the agent's proposal (ids, flight numbers, names): it must name one. */
  names: readonly string[];
  /** The action's words as a pattern on the proposal's lower-case text (e.g. /\\bcancel/): matching it also counts. */
  action?: RegExp;
  /** Whether an earlier call's arguments are of the same target; default: any earlier call of \`tool\` is. */
  sameTarget?: (earlierArguments: Record<string, unknown>) => boolean;
}

/** A value the call uses, to look for in what the user said. */
export interface StatedValue {
  /** The value itself, e.g. 'DTW' or 'gift_card_7815826'. */
  value: string;
  /** Its kind in the pack's domain description (\`domain\` of \`guards/lib/domain-description.ts\`), e.g. 'airport'. */
  kind?: string;
  /** The records of that kind the user could have meant, from lookups (the one holding \`value\` among them). */
  records?: readonly Readonly<Record<string, unknown>>[];
  /** The value playing each of the kind's roles in this call, e.g. { original: 'credit_card_4421486' }. */
  roles?: Readonly<Record<string, string>>;
}

/** A choice among options the agent offered. */
export interface OfferedChoice {
  /** Words that name the matter, e.g. ['insurance']. */
  about: readonly string[];
  /** The options by value, each with phrases that name it, e.g. { no: ['no insurance', 'without insurance'] }. */
  options: Readonly<Record<string, readonly string[]>>;
  /** The option the call takes. */
  value: string;
  /** The option a plain yes picks when the agent asked about the matter ("Would you like insurance?"). */
  onYes?: string;
  /** The option a plain no picks. */
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
   * an assistant message that asks and names one of \`call.names\`, not used by an earlier call; 'no': the user
   * refused, took the yes back or made it wait ("Yes. Actually no", "Yes, but first …"); else 'unsure'.
   */
  agreed(call: ProposedCall): Fact;
  /**
   * Did the user state this value, literally or as the domain description lets name it among \`records\` ("Detroit"
   * for DTW, "my gift card", "the card ending in 7803", "the original payment method", "the cheapest one")? 'yes':
   * a user message names it or singles it out; 'no': the user singled out another; 'unsure': nothing, or several fit.
   */
  stated(request: StatedValue, domain?: DomainDescription): ValueFact;
  /** Did the user choose \`choice.value\` among the options the agent offered ('no': another option; \`value\`: which)? */
  chose(choice: OfferedChoice): ValueFact;
  /** Did the user give one of these reasons (each with phrases that state it), and which (\`value\`)? */
  reasonGiven(reasons: Readonly<Record<string, readonly string[]>>): ValueFact;
  /** Did the agent ask the user about the matter (any of \`about\`) before the call? 'yes' or 'no'. */
  askedAbout(about: readonly string[]): Fact;
}
`;
