import type { Verdict, Violation } from '../model/verdict.ts';
import type { GuardPack } from '../pack/load-pack.ts';
import { feedbackFor } from '../runtime/feedback.ts';
import type { DecisionRecord } from './decision-source.ts';

/** A denied (or asked) call shown to the reviewer, with the feedback the agent got. */
export interface ShownDecision {
  origin: string;
  time?: string;
  call: DecisionRecord['call'];
  decision: DecisionRecord['decision'];
  /** This policy's message for the call. */
  message: string;
  /** What the agent was told instead of the tool's result. */
  feedback: string;
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
  /** The latest calls this policy did not allow, latest first. */
  recent: ShownDecision[];
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

/**
 * Counts a policy's decisions in the records of a decision source and picks its latest denials.
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
  limit = 5,
): PolicyDecisions {
  const summary: PolicyDecisions = { source, calls: 0, allowed: 0, denied: 0, asked: 0, violations: 0, recent: [] };
  const shown: ShownDecision[] = [];
  for (const record of records) {
    if (record.call.name !== tool) continue;
    summary.calls++;
    if (record.decision === 'allow') summary.allowed++;
    else if (record.decision === 'deny') summary.denied++;
    else summary.asked++;
    const found = record.violations.find((violation) => violation.policy === policy);
    if (found === undefined) continue;
    summary.violations++;
    shown.push({
      origin: record.origin,
      ...(record.time === undefined ? {} : { time: record.time }),
      call: record.call,
      decision: record.decision,
      message: found.message,
      feedback: recordFeedback(pack, record),
    });
  }
  summary.recent = shown.slice(-limit).reverse();
  return summary;
}
