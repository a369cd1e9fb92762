import type { GuardContext } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { FaultKind, PolicyFinding } from '../model/verdict.ts';

/**
 * The code of one atomic policy: returns nothing when the call complies, or a finding that says what is wrong.
 *
 * @example
 * ```ts
 * const maxPassengers: PolicyCheck<{ passengers: unknown[] }> = (args) =>
 *   args.passengers.length > 5 ? { message: `${args.passengers.length} passengers; at most 5 are allowed` } : undefined;
 * ```
 */
export type PolicyCheck<Args extends object = Record<string, unknown>> = (
  args: Args,
  context: GuardContext,
  call: ToolCall,
) => PolicyFinding | undefined | Promise<PolicyFinding | undefined>;

/** What a guard module exports: its policy checks by policy id. */
export interface GuardModule {
  checks: Record<string, PolicyCheck<never>>;
}

/** The outcome of evaluating one policy: complies, breaks it (finding), or could not be decided (fault). */
export type PolicyOutcome =
  | { policy: string; finding: PolicyFinding | undefined }
  | { policy: string; fault: FaultKind; message: string };

/** A policy to evaluate: its id and its check, absent when the guard code has none. */
export interface CheckToRun {
  policy: string;
  check: PolicyCheck<never> | undefined;
  /** Why the check is absent, when known. */
  missingReason?: string;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads what a check returned: nothing, a finding, or something malformed (a fault). */
export function outcomeOf(policy: string, result: unknown): PolicyOutcome {
  if (result === undefined || result === null) return { policy, finding: undefined };
  if (typeof result === 'object' && !Array.isArray(result)) {
    const { message, facts, ask } = result as { message?: unknown; facts?: unknown; ask?: unknown };
    const factsValid = facts === undefined || (typeof facts === 'object' && facts !== null && !Array.isArray(facts));
    const askValid = ask === undefined || (typeof ask === 'string' && ask.trim() !== '');
    if (typeof message === 'string' && message.trim() !== '' && factsValid && askValid) {
      const finding: PolicyFinding = { message };
      if (facts !== undefined) finding.facts = facts as Record<string, unknown>;
      if (ask !== undefined) finding.ask = ask as string;
      return { policy, finding };
    }
  }
  let shown: string;
  try {
    shown = JSON.stringify(result)?.slice(0, 200) ?? String(result);
  } catch {
    shown = String(result);
  }
  return { policy, fault: 'malformed', message: `returned ${shown}; expected nothing or { message, facts?, ask? }` };
}

/**
 * Runs policy checks and never throws: the one place where a check that throws, outlives `timeoutMs`, returns
 * something malformed or is missing becomes a fault (which the runtime turns into deny). Checks start one after
 * another. Their synchronous work shares the budget: when it takes longer than `timeoutMs` in all, every check that
 * answered synchronously is reported as past the budget (the clock is read before and after that work, not around
 * each check: a reading costs as much as a small check). Asynchronous checks share one deadline, `timeoutMs` after the
 * last one started, so that a check still pending then is the one reported. When every check answers synchronously
 * the outcomes come back at once, with no promise made; otherwise a promise of them.
 *
 * @example
 * ```ts
 * const outcomes = await evaluateChecks([{ policy: 'a.b', check }], args, context, call, 50);
 * ```
 */
export function evaluateChecks(
  checks: readonly CheckToRun[],
  args: Record<string, unknown>,
  context: GuardContext,
  call: ToolCall,
  timeoutMs: number,
): PolicyOutcome[] | Promise<PolicyOutcome[]> {
  const outcomes: PolicyOutcome[] = new Array(checks.length);
  let pending: { index: number; result: Promise<unknown> }[] | undefined;
  // Milliseconds are enough against a budget in milliseconds.
  const begun = Date.now();
  for (let index = 0; index < checks.length; index++) {
    const { policy, check, missingReason } = checks[index] as CheckToRun;
    if (check === undefined) {
      outcomes[index] = {
        policy,
        fault: 'missing_guard',
        message: missingReason ?? 'the guard code has no check for it',
      };
      continue;
    }
    let result: unknown;
    try {
      result = check(args as never, context, call);
    } catch (error) {
      outcomes[index] = { policy, fault: 'threw', message: `threw: ${describe(error)}` };
      continue;
    }
    if (result instanceof Promise) {
      // Until it settles, a pending check's outcome is a timeout: the deadline leaves it so.
      outcomes[index] = timedOut(policy, timeoutMs);
      pending ??= [];
      pending.push({ index, result });
    } else {
      outcomes[index] = outcomeOf(policy, result);
    }
  }
  const spent = Date.now() - begun;
  if (spent > timeoutMs) {
    for (const [index, outcome] of outcomes.entries()) {
      if ('fault' in outcome) continue;
      outcomes[index] = {
        policy: outcome.policy,
        fault: 'timeout',
        message: `took longer than its ${timeoutMs} ms budget: the synchronous checks of this call took ${spent} ms together`,
      };
    }
  }
  return pending === undefined ? outcomes : settle(pending, outcomes, timeoutMs);
}

function timedOut(policy: string, timeoutMs: number): PolicyOutcome {
  return { policy, fault: 'timeout', message: `took longer than its ${timeoutMs} ms budget` };
}

/**
 * Waits for the pending checks, or for the deadline `timeoutMs` from now, whichever comes first; what settles later
 * changes nothing returned.
 */
function settle(
  pending: readonly { index: number; result: Promise<unknown> }[],
  outcomes: PolicyOutcome[],
  timeoutMs: number,
): Promise<PolicyOutcome[]> {
  return new Promise((resolve) => {
    let left = pending.length;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(outcomes);
    };
    const timer = setTimeout(finish, timeoutMs);
    for (const { index, result } of pending) {
      const policy = (outcomes[index] as PolicyOutcome).policy;
      result.then(
        (value: unknown) => {
          if (done) return;
          outcomes[index] = outcomeOf(policy, value);
          if (--left === 0) finish();
        },
        (error: unknown) => {
          if (done) return;
          outcomes[index] = { policy, fault: 'threw', message: `threw: ${describe(error)}` };
          if (--left === 0) finish();
        },
      );
    }
  });
}
