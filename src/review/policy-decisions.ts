import type { Verdict, Violation } from '../model/verdict.ts';
import type { GuardPack } from '../pack/load-pack.ts';
import { feedbackFor } from '../runtime/feedback.ts';
import type { DecisionRecord } from './decision-source.ts';

/** A decided call shown to the reviewer, with what the guards saw and the feedback the agent got. */
export interface ShownDecision {
  origin: string;
  time?: string;
  call: DecisionRecord['call'];
  decision: DecisionRecord['decision'];
  /** This policy's message for the call; null when the policy found nothing wrong with it. */
  message: string | null;
  /** What the agent was told instead of the tool's result; null when the call was allowed. */
  feedback: string | null;
  now?: string;
  conversation?: DecisionRecord['conversation'];
  conversationDigest?: DecisionRecord['conversationDigest'];
  lookups?: DecisionRecord['lookups'];
  askOutcome?: DecisionRecord['askOutcome'];
}

/** A few of many calls, spread over the decision source in its order, and how many there were. */
export interface DecisionSample {
  total: number;
  shown: ShownDecision[];
}

/** What a policy decided on recorded traffic. */
export interface PolicyDecisions {
  source: string;
  /** Calls of the policy's tool, and how they were decided. */
  calls: number;
  allowed: number;
  denied: number;
  asked: number;
  /** Calls this policy did not allow. */
  violations: number;
  /** Calls this policy did not allow (denied, or asked a person). */
  refusedSample: DecisionSample;
  /** Calls of its tool this policy found nothing wrong with (another policy may still have refused them). */
  allowedSample: DecisionSample;
}

function violationOf(pack: GuardPack, tool: string, found: { policy: string; message: string }): Violation {
  const policy = pack.tools.get(tool)?.policies.find((candidate) => candidate.spec.id === found.policy);
  const violation: Violation = {
    policy: found.policy,
    name: policy?.spec.name ?? found.policy,
    message: found.message,
    references: policy?.spec.references ?? [],
    effect: policy?.entry.state === 'enforced' ? policy.entry.effect : 'deny',
  };
  if (policy?.spec.remedy !== undefined) violation.remedy = policy.spec.remedy;
  return violation;
}

/**
 * The feedback the agent got for a recorded decision, rebuilt from the record's violations and the pack's specs
 * with the runtime's own `feedbackFor`.
 */
export function recordFeedback(pack: GuardPack, record: DecisionRecord): string {
  const verdict: Verdict = {
    decision: record.decision,
    evaluated: record.decision,
    tool: record.call.name,
    callId: record.origin,
    violations: record.violations.map((found) => violationOf(pack, record.call.name, found)),
    diagnostics: { policies: [], errors: [], durationUs: 0 },
  };
  return feedbackFor(verdict);
}

/** Up to `limit` items spread evenly over `items`, first and last included, in their order. */
function spread<Item>(items: readonly Item[], limit: number): Item[] {
  if (items.length <= limit) return [...items];
  if (limit <= 1) return items.slice(-limit);
  return Array.from(
    { length: limit },
    (_, index) => items[Math.round((index * (items.length - 1)) / (limit - 1))] as Item,
  );
}

function shownDecision(pack: GuardPack, record: DecisionRecord, message: string | null): ShownDecision {
  const { origin, time, call, decision, now, conversation, conversationDigest, lookups, askOutcome } = record;
  return {
    origin,
    call,
    decision,
    message,
    feedback: decision === 'allow' ? null : recordFeedback(pack, record),
    ...(time === undefined ? {} : { time }),
    ...(now === undefined ? {} : { now }),
    ...(conversation === undefined ? {} : { conversation }),
    ...(conversationDigest === undefined ? {} : { conversationDigest }),
    ...(lookups === undefined ? {} : { lookups }),
    ...(askOutcome === undefined ? {} : { askOutcome }),
  };
}

/**
 * Counts a policy's decisions in the records of a decision source, and samples the calls it refused and the calls of
 * its tool it found nothing wrong with: up to `limit` of each, spread over the source, each with what the source keeps
 * of its context (clock, conversation, lookups, the outcome of an ask).
 *
 * @example
 * ```ts
 * const summary = policyDecisions(pack, 'cancel.eligibility', 'cancel_reservation', records, 'verdicts.jsonl');
 * ```
 */
export function policyDecisions(
  pack: GuardPack,
  policy: string,
  tool: string,
  records: readonly DecisionRecord[],
  source: string,
  limit = 8,
): PolicyDecisions {
  const summary = { source, calls: 0, allowed: 0, denied: 0, asked: 0, violations: 0 };
  const refused: { record: DecisionRecord; message: string }[] = [];
  const passed: DecisionRecord[] = [];
  for (const record of records) {
    if (record.call.name !== tool) continue;
    summary.calls++;
    if (record.decision === 'allow') summary.allowed++;
    else if (record.decision === 'deny') summary.denied++;
    else summary.asked++;
    const found = record.violations.find((violation) => violation.policy === policy);
    if (found === undefined) passed.push(record);
    else refused.push({ record, message: found.message });
  }
  summary.violations = refused.length;
  return {
    ...summary,
    refusedSample: {
      total: refused.length,
      shown: spread(refused, limit).map(({ record, message }) => shownDecision(pack, record, message)),
    },
    allowedSample: {
      total: passed.length,
      shown: spread(passed, limit).map((record) => shownDecision(pack, record, null)),
    },
  };
}
