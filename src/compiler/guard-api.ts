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

/** What a check returns when the call breaks the policy. */
export interface PolicyFinding {
  /** What is wrong, for the agent, so it can act on it: name the values that decided it. */
  message: string;
  /** The values that decided it (from the arguments, lookups or conversation), for the audit log and review. */
  facts?: Record<string, unknown>;
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
}
`;
