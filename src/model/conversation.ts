import { asksForConfirmation, type ReplyReading, readReply } from '../dialogue/affirmation.ts';
import { type Agreement, type AgreementTerms, agreementTo, type ProposedCall } from '../dialogue/agreement.ts';
import { canonicalText } from '../dialogue/canonical-text.ts';
import type { DomainDescription } from '../dialogue/domain-description.ts';
import {
  askedAbout,
  choseOption,
  type Fact,
  gaveReason,
  type OfferedChoice,
  type ReasonOptions,
  type StatedValue,
  statedValue,
  type ValueFact,
} from '../dialogue/facts.ts';
import { userRequested } from '../dialogue/requested.ts';
import type { ToolCall } from './tool-call.ts';

/** A system or developer instruction. */
export interface SystemMessage {
  role: 'system';
  text: string;
}

/** Something the user said. */
export interface UserMessage {
  role: 'user';
  text: string;
}

/** Something the assistant said, with the tool calls it made in the same turn. */
export interface AssistantMessage {
  role: 'assistant';
  text: string;
  toolCalls: readonly ToolCall[];
}

/** The result a tool returned for a call. */
export interface ToolResultMessage {
  role: 'tool';
  callId: string;
  name: string;
  content: string;
}

/** One message of a conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** A tool call the agent made earlier in the conversation, with its result when one was recorded. */
export interface PastToolCall {
  call: ToolCall;
  result: string | undefined;
  /** Index of the assistant message that made the call. */
  messageIndex: number;
  /** Index of the call among that message's tool calls. */
  callIndex: number;
}

/** The user's explicit yes and the assistant message it answers. */
export interface Confirmation {
  /** The user's message that says yes. */
  reply: string;
  /** The last assistant text before the reply: the proposal the user agreed to. */
  proposal: string;
  /** Whether the proposal asks the user to confirm. */
  proposalAsks: boolean;
  /** Tool calls made after the reply, before the call being checked. */
  callsSince: readonly PastToolCall[];
}

/**
 * Per-message readings by reader, and the answers and requests read so far by message index, shared by a conversation
 * and the conversations `before` makes from it: their messages are the same.
 */
interface Shared {
  messages: readonly Message[];
  readings: Map<(message: Message) => unknown, unknown[]>;
  answers: ReplyReading[];
  asks: boolean[];
}

/**
 * Messages whose text was found canonical, with that text: `before` and conversations rebuilt from the same messages
 * read no text again, and a message whose text was changed since is read afresh.
 */
const canonical = new WeakMap<Message, string>();

/** A message with its text in canonical form (see `canonicalText`); the same object when it already is. */
function canonicalMessage(message: Message): Message {
  if (message.role === 'tool' || canonical.get(message) === message.text) return message;
  const text = canonicalText(message.text);
  const result = text === message.text ? message : { ...message, text };
  canonical.set(result, text);
  return result;
}

/**
 * The typed conversation before a tool call, oldest message first, with the questions guards ask of it. The texts of
 * system, user and assistant messages are kept in their canonical form (see `canonicalText`), so that every guard
 * reads the text a person sees, whatever invisible or compatibility characters it was sent with; tool results and
 * call arguments are kept as they came.
 *
 * @example
 * ```ts
 * const conversation = new Conversation([
 *   { role: 'assistant', text: 'Cancel reservation ZFA04Y? Please confirm.', toolCalls: [] },
 *   { role: 'user', text: 'Yes, go ahead.' },
 * ]);
 * conversation.confirmation()?.proposal; // 'Cancel reservation ZFA04Y? Please confirm.'
 * ```
 */
export class Conversation {
  readonly messages: readonly Message[];
  private userTextsCache: string[] | undefined;
  private confirmationCache: { value: Confirmation | undefined } | undefined;
  private toolCallsCache: PastToolCall[] | undefined;
  /** What this conversation shares with the conversations `before` makes (see `Shared`). */
  private shared: Shared;
  /** The reader asked for last and this conversation's copy of its readings: most callers use one reader. */
  private lastReading: { read: (message: Message) => unknown; values: readonly unknown[] } | undefined;
  /** This conversation's own copies of the shared readings of the other readers, by reader. */
  private readings: Map<(message: Message) => unknown, readonly unknown[]> | undefined;

  constructor(messages: readonly Message[]) {
    this.messages = messages.map(canonicalMessage);
    this.shared = { messages: this.messages, readings: new Map(), answers: [], asks: [] };
  }

  /**
   * The conversation up to, not including, message `index`. It reuses the tool calls this conversation already paired
   * with their results, unless `index` falls inside a run of results, and shares its per-message readings (see
   * `readEach`).
   */
  before(index: number): Conversation {
    const earlier = new Conversation(this.messages.slice(0, index));
    earlier.shared = this.shared;
    if (this.toolCallsCache !== undefined && this.messages[index]?.role !== 'tool') {
      earlier.toolCallsCache = this.toolCallsCache.filter((past) => past.messageIndex < index);
    }
    return earlier;
  }

  /**
   * `read` applied to every message, oldest first. Each message is read once for this conversation and every
   * conversation `before` made from it or it from: replay and agents decide many calls on one growing conversation.
   * `read` must be pure, and the same function each time (it is the key of what is remembered).
   *
   * @example
   * ```ts
   * const lower = (message: Message) => ('text' in message ? message.text.toLowerCase() : '');
   * conversation.readEach(lower); // one lower-case text per message
   * ```
   */
  readEach<Value>(read: (message: Message) => Value): readonly Value[] {
    const last = this.lastReading;
    if (last?.read === read) return last.values as readonly Value[];
    let own = this.readings?.get(read);
    if (own === undefined) {
      let all = this.shared.readings.get(read);
      if (all === undefined) {
        all = [];
        this.shared.readings.set(read, all);
      }
      const count = this.messages.length;
      for (let index = all.length; index < count; index++) all.push(read(this.shared.messages[index] as Message));
      // Only the conversation with every shared message may keep the shared list itself: it never grows past it.
      own = count === this.shared.messages.length ? all : all.slice(0, count);
    }
    if (last !== undefined) {
      this.readings ??= new Map();
      this.readings.set(last.read, last.values);
    }
    this.lastReading = { read, values: own };
    return own as readonly Value[];
  }

  /** Every user message's text, oldest first. */
  userTexts(): readonly string[] {
    if (this.userTextsCache === undefined) {
      this.userTextsCache = [];
      for (const message of this.messages) if (message.role === 'user') this.userTextsCache.push(message.text);
    }
    return this.userTextsCache;
  }

  /** Index of the last user message, or -1. */
  lastUserIndex(): number {
    for (let index = this.messages.length - 1; index >= 0; index--) {
      if (this.messages[index]?.role === 'user') return index;
    }
    return -1;
  }

  /**
   * Every tool call made from message `from` on, with its result. A call's result is the tool message that answers it
   * among those right after its assistant message (by call id, else by position), since call ids may repeat within a
   * conversation.
   */
  toolCalls(from = 0): PastToolCall[] {
    this.toolCallsCache ??= this.findToolCalls();
    return from === 0 ? [...this.toolCallsCache] : this.toolCallsCache.filter((past) => past.messageIndex >= from);
  }

  private findToolCalls(): PastToolCall[] {
    const calls: PastToolCall[] = [];
    for (let index = 0; index < this.messages.length; index++) {
      const message = this.messages[index];
      if (message?.role !== 'assistant' || message.toolCalls.length === 0) continue;
      const answers: ToolResultMessage[] = [];
      for (let next = index + 1; this.messages[next]?.role === 'tool'; next++) {
        answers.push(this.messages[next] as ToolResultMessage);
      }
      message.toolCalls.forEach((call, callIndex) => {
        let answer = answers.findIndex((candidate) => candidate.callId === call.id);
        if (answer === -1 && answers.length > 0) answer = 0;
        const result = answer === -1 ? undefined : answers.splice(answer, 1)[0]?.content;
        calls.push({ call, result, messageIndex: index, callIndex });
      });
    }
    return calls;
  }

  /**
   * How the user message at `index` answers the proposal before it, with the words that decided (see `readReply`):
   * `yes` (a clear yes), `no` (a refusal or hold, a yes taken back or made to wait) or `unsure`; undefined when the
   * message there is not the user's.
   */
  answerAt(index: number): ReplyReading | undefined {
    const message = this.messages[index];
    if (message?.role !== 'user') return undefined;
    let answer = this.shared.answers[index];
    if (answer === undefined) {
      answer = readReply(message.text);
      this.shared.answers[index] = answer;
    }
    return answer;
  }

  /** Whether the assistant message at `index` asks the user to confirm or choose (see `asksForConfirmation`). */
  asksAt(index: number): boolean {
    const message = this.messages[index];
    if (message?.role !== 'assistant') return false;
    let asks = this.shared.asks[index];
    if (asks === undefined) {
      asks = asksForConfirmation(message.text);
      this.shared.asks[index] = asks;
    }
    return asks;
  }

  /**
   * The user's explicit confirmation, when the last thing the user said is a clear yes (see `readReply`);
   * otherwise undefined.
   */
  confirmation(): Confirmation | undefined {
    this.confirmationCache ??= { value: this.findConfirmation() };
    return this.confirmationCache.value;
  }

  private findConfirmation(): Confirmation | undefined {
    const replyIndex = this.lastUserIndex();
    const reply = this.messages[replyIndex];
    if (reply?.role !== 'user' || this.answerAt(replyIndex)?.answer !== 'yes') return undefined;
    let proposal = '';
    for (let index = replyIndex - 1; index >= 0; index--) {
      const message = this.messages[index];
      if (message?.role === 'user') break;
      if (message?.role === 'assistant' && message.text.trim() !== '') {
        proposal = message.text;
        break;
      }
    }
    return {
      reply: reply.text,
      proposal,
      proposalAsks: asksForConfirmation(proposal),
      callsSince: this.toolCalls(replyIndex + 1),
    };
  }

  /**
   * Whether the user agreed to the agent's proposal that covers this call (see `agreementTo`): yes, no (refused, took
   * it back, made it wait) or unsure, with the evidence and the messages the agreement rests on. `terms` also ask
   * whether the call keeps what was agreed (the amount stated, the payment method named, the items listed) and let a
   * corrected choice after a rejected call stand with the yes before it.
   *
   * @example
   * ```ts
   * conversation.agreed({ tool: 'cancel_reservation', names: ['ZFA04Y', 'cancel'] }).answer; // 'yes'
   * conversation.agreed(call, { amount: { amount: 209, description: { currency: ['$'] } } }).amount?.answer; // 'yes' after "$209"
   * ```
   */
  agreed(call: ProposedCall, terms?: AgreementTerms): Agreement {
    return agreementTo(this, call, terms);
  }

  /**
   * Whether the user stated a value, literally or as the pack's domain description lets name it among the records
   * looked up (see `statedValue`).
   *
   * @example
   * ```ts
   * conversation.stated({ value: 'DTW', kind: 'airport', records: airports }, domain).answer; // 'yes' for "Detroit"
   * ```
   */
  stated(request: StatedValue, domain?: DomainDescription): ValueFact {
    return statedValue(this, request, domain);
  }

  /**
   * Whether the user chose `value` among the options the agent offered on a matter (see `choseOption`).
   *
   * @example
   * ```ts
   * conversation.chose({ about: ['insurance'], options: { yes: ['with insurance'], no: ['no insurance'] }, value: 'no', onYes: 'yes', onNo: 'no' });
   * ```
   */
  chose(choice: OfferedChoice): ValueFact {
    return choseOption(this, choice);
  }

  /**
   * Whether the user gave one of the reasons, each with the phrases that state it, and which, or declined to give one
   * (see `gaveReason`).
   *
   * @example
   * ```ts
   * conversation.reasonGiven({ change_of_plan: ['change of plan', 'plans changed'] }).value; // 'change_of_plan'
   * ```
   */
  reasonGiven(reasons: Readonly<Record<string, readonly string[]>>, options?: ReasonOptions): ValueFact {
    return gaveReason(this, reasons, options);
  }

  /**
   * Whether the agent asked the user about a matter before the call (see `askedAbout`).
   *
   * @example
   * ```ts
   * conversation.askedAbout(['insurance']).answer; // 'yes' after "Would you like travel insurance?"
   * ```
   */
  askedAbout(about: readonly string[]): Fact {
    return askedAbout(this, about);
  }

  /**
   * Whether the user asked, on their own, for the matter the domain names with `about`: yes when a user message asks
   * for it before the agent raised it, no when the user refused it, only took up the agent's offer or never named it,
   * unsure when the user asked only after the agent raised it (see `userRequested`).
   *
   * @example
   * ```ts
   * conversation.requested(['compensation', 'voucher']).answer; // 'yes' after "I want compensation for the delay"
   * ```
   */
  requested(about: readonly string[]): Fact {
    return userRequested(this, about);
  }
}
