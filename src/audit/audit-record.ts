import type { Conversation } from '../model/conversation.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { Verdict } from '../model/verdict.ts';
import { canonicalJson, sha256Hex } from './canonical-json.ts';

/** Which policy a verdict was decided under: a loaded pack's domain and content hashes. */
export interface PackFingerprint {
  domain: string;
  /** SHA-256 over every file of the pack folder (see `packFingerprint`). */
  packSha256: string;
  /** SHA-256 of the pack's policy document. */
  policySha256: string;
}

/**
 * One verdict as the audit log keeps it: plain JSON data, serialised canonically (`canonicalJson`) before it is
 * hashed into the chain.
 */
export interface AuditRecord {
  /** Format of the record. */
  format: 1;
  /** When the verdict was reached (ISO 8601, UTC). */
  time: string;
  /** The policy's clock the call was decided at (ISO 8601). */
  now: string;
  call: ToolCall;
  /** The conversation before the call: how many messages, and their digest (`conversationDigest`). */
  conversation: { messages: number; sha256: string };
  verdict: Pick<Verdict, 'decision' | 'evaluated' | 'violations'> & {
    policies: readonly string[];
    errors: Verdict['diagnostics']['errors'];
  };
  /** The packs loaded when the call was decided. */
  packs: readonly PackFingerprint[];
  /** Time spent deciding, in microseconds. */
  durationUs: number;
}

/** What the person asked about a call answered; `unavailable` when no one could be asked. */
export type AskAnswer = 'approved' | 'declined' | 'cancelled' | 'timed_out' | 'unavailable';

/**
 * What became of a call whose verdict was `ask`: the person's answer and whether the call then ran.
 *
 * @example
 * ```ts
 * runtime.settleAsk(call, { answer: 'approved', ran: true });
 * ```
 */
export interface AskOutcome {
  answer: AskAnswer;
  ran: boolean;
}

/**
 * The outcome of an ask as the audit log keeps it, appended after the record of the ask's verdict. `ask` links it to
 * that record: the record's time and the SHA-256 of its canonical body (the chain entry whose `body` hashes to it).
 */
export interface AskOutcomeRecord {
  format: 1;
  kind: 'ask_outcome';
  /** When the outcome was recorded (ISO 8601, UTC). */
  time: string;
  call: ToolCall;
  outcome: AskOutcome;
  /** The record of the ask's verdict; null when the runtime that recorded the outcome did not decide the ask. */
  ask: { time: string; sha256: string } | null;
}

/**
 * Where verdicts and ask outcomes are appended. `append` returns at once and never throws: the record is written in
 * the background, and a failure is reported by the sink (see `AuditLog`), never to the caller deciding the call. The
 * record shares its objects with the verdict handed to the caller, so a sink serialises or copies it before `append`
 * returns.
 *
 * @example
 * ```ts
 * const runtime = new GuardRuntime(packs, { audit: await openAuditLog('audit.db') });
 * ```
 */
export interface AuditSink {
  append(record: AuditRecord | AskOutcomeRecord): void;
}

/**
 * Whether a stored record is an ask's outcome rather than a verdict.
 *
 * @example
 * ```ts
 * const record = JSON.parse(entry.body);
 * if (!isAskOutcomeRecord(record)) console.log(record.verdict.decision);
 * ```
 */
export function isAskOutcomeRecord(record: AuditRecord | AskOutcomeRecord): record is AskOutcomeRecord {
  return 'kind' in record && record.kind === 'ask_outcome';
}

/**
 * The canonical JSON body a record is chained with; a verdict whose violation facts cannot be serialised keeps them
 * as a note.
 *
 * @example
 * ```ts
 * const sha256 = sha256Hex(auditBody(record)); // what an ask's outcome links to
 * ```
 */
export function auditBody(record: AuditRecord | AskOutcomeRecord): string {
  try {
    return canonicalJson(record);
  } catch (error) {
    if (isAskOutcomeRecord(record)) throw error;
    const note = { unserialisable: (error as Error).message };
    const violations = record.verdict.violations.map((violation) => ({ ...violation, facts: note }));
    return canonicalJson({ ...record, verdict: { ...record.verdict, violations } });
  }
}

/**
 * The digest of a conversation as the audit log records it: SHA-256 of the canonical JSON of its typed messages.
 *
 * @example
 * ```ts
 * conversationDigest(fromOpenAIChat(messages, 'request')) === record.conversation.sha256;
 * ```
 */
export function conversationDigest(conversation: Conversation): string {
  return sha256Hex(canonicalJson(conversation.messages));
}

/** The conversation's digest, or what kept it from being computed (a conversation nested too deeply to serialise). */
function digestOrProblem(conversation: Conversation): string {
  try {
    return conversationDigest(conversation);
  } catch (error) {
    return `unavailable: ${(error as Error).message}`;
  }
}

/**
 * The audit record of one verdict. Never throws: a conversation that cannot be serialised gets a digest that says why.
 *
 * @example
 * ```ts
 * sink.append(auditRecord(call, context.conversation, context.now, verdict, fingerprints));
 * ```
 */
export function auditRecord(
  call: ToolCall,
  conversation: Conversation,
  now: Date,
  verdict: Verdict,
  packs: readonly PackFingerprint[],
): AuditRecord {
  return {
    format: 1,
    time: new Date().toISOString(),
    now: Number.isNaN(now.getTime()) ? String(now) : now.toISOString(),
    call: { id: call.id, name: call.name, arguments: call.arguments },
    conversation: { messages: conversation.messages.length, sha256: digestOrProblem(conversation) },
    verdict: {
      decision: verdict.decision,
      evaluated: verdict.evaluated,
      violations: verdict.violations,
      policies: verdict.diagnostics.policies,
      errors: verdict.diagnostics.errors,
    },
    packs,
    durationUs: verdict.diagnostics.durationUs,
  };
}

/**
 * The audit record of an ask's outcome, linked to the record of the ask's verdict when it is known.
 *
 * @example
 * ```ts
 * sink.append(askOutcomeRecord(call, { answer: 'declined', ran: false }, null));
 * ```
 */
export function askOutcomeRecord(call: ToolCall, outcome: AskOutcome, ask: AskOutcomeRecord['ask']): AskOutcomeRecord {
  return {
    format: 1,
    kind: 'ask_outcome',
    time: new Date().toISOString(),
    call: { id: call.id, name: call.name, arguments: call.arguments },
    outcome: { answer: outcome.answer, ran: outcome.ran },
    ask,
  };
}
