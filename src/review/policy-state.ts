import type { PolicyEntry } from '../pack/manifest.ts';

/** A policy's state for the reviewer: what kind, in words, and notes that explain it. */
export interface PolicyState {
  kind: 'enforced' | 'not_enforced' | 'archived' | 'general';
  label: string;
  /** Facts shown beside the state, each a label and a text; a new fact about a policy is one more note. */
  notes: { label: string; text: string }[];
}

/** How a policy fared when its pack was validated on recorded runs (`compile generate --validate`). */
export interface ValidationFigures {
  calls: number;
  denied: number;
  flagged: boolean;
  /** How often the policy's answer came up: yes (no finding), no (denied), unsure (asked). */
  answers?: { yes: number; no: number; unsure: number } | undefined;
}

/**
 * The state of a tool's policy from its manifest entry, with the outcome of its test cases when they were run and
 * its denial rate and answers on recorded runs when the pack was validated. A policy flagged there (it refused most
 * calls), or whose generated check reads message text itself (`readsText`, lines of its source), is labelled for
 * review. A policy whose spec says an unsure fact denies (`unsure`) says so beside its effect.
 *
 * @example
 * ```ts
 * const state = policyState(policy.entry, results, manifest.validation?.policies[policy.spec.id]);
 * ```
 */
export function policyState(
  entry: PolicyEntry,
  results?: readonly { outcome: 'pass' | 'fail' | 'error' }[],
  validation?: ValidationFigures,
  readsText?: readonly string[],
  unsure?: 'ask' | 'deny',
): PolicyState {
  if (entry.state === 'archived')
    return { kind: 'archived', label: 'archived', notes: [{ label: 'why', text: entry.reason }] };
  if (entry.state === 'not_enforced') {
    return { kind: 'not_enforced', label: 'not enforced', notes: [{ label: 'last failure', text: entry.reason }] };
  }
  const notes = [{ label: 'effect', text: entry.effect === 'ask' ? 'asks a person' : 'denies the call' }];
  if (unsure === 'deny') {
    notes.push({ label: 'unsure fact', text: 'denies the call: the policy says a missing fact must deny' });
  }
  if (results !== undefined) {
    const failing = results.filter((result) => result.outcome !== 'pass');
    notes.push({
      label: 'tests',
      text:
        results.length === 0
          ? 'no test cases'
          : failing.length === 0
            ? `all ${results.length} pass`
            : `${failing.length} of ${results.length} do not pass`,
    });
  }
  if (validation !== undefined) {
    const share = validation.calls === 0 ? 0 : Math.round((100 * validation.denied) / validation.calls);
    notes.push({
      label: validation.flagged ? 'flagged for review' : 'recorded runs',
      text: `refused ${validation.denied} of ${validation.calls} recorded calls of its tool (${share}%)${
        validation.flagged ? ': check that it is not stricter than the policy' : ''
      }`,
    });
  }
  if (validation?.answers !== undefined) {
    const { yes, no, unsure } = validation.answers;
    notes.push({ label: 'answers', text: `yes ${yes}, no ${no} (denied), unsure ${unsure} (asked) on recorded runs` });
  }
  if (readsText !== undefined && readsText.length > 0) {
    notes.push({
      label: 'reads message text',
      text: `the check matches message text itself instead of asking the conversation's questions: ${readsText.join('; ')}`,
    });
  }
  const flagged = validation?.flagged === true || (readsText !== undefined && readsText.length > 0);
  return { kind: 'enforced', label: flagged ? 'enforced, flagged' : 'enforced', notes };
}

/** The state of a general policy: one that no tool call can decide, with the reason. */
export function generalPolicyState(reason: string): PolicyState {
  return { kind: 'general', label: 'general (no tool call decides it)', notes: [{ label: 'why', text: reason }] };
}
