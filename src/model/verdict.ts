/** What the runtime decided for a tool call. `ask` means a person must approve the call first. */
export type Decision = 'allow' | 'deny' | 'ask';

/** Why a policy could not be evaluated; every fault denies. */
export type FaultKind =
  | 'threw'
  | 'timeout'
  | 'malformed'
  | 'missing_guard'
  | 'not_enforced'
  | 'unknown_tool'
  | 'invalid_arguments';

/**
 * A policy the call breaks, or a policy that could not be evaluated (a fault, which denies just the same).
 *
 * @example
 * ```ts
 * const violation: Violation = {
 *   policy: 'cancel.not_flown', name: 'Only unflown trips', message: 'segment HAT001 on 2024-05-10 has landed',
 *   references: ['The agent can only cancel the whole trip that is not flown.'], effect: 'deny',
 * };
 * ```
 */
export interface Violation {
  /** Stable policy id, e.g. `cancel.eligibility`; for a call no policy covers, `runtime.<fault>`. */
  policy: string;
  name: string;
  /** What is wrong, for the agent. */
  message: string;
  /** Verbatim sentences of the policy document the policy enforces. */
  references: readonly string[];
  /** Whether this violation denies the call or asks a person. */
  effect: 'deny' | 'ask';
  /** What the agent may do instead. */
  remedy?: string;
  /** The question to put to the person, when the policy asks because what decides it is unsure. */
  question?: string;
  /** The facts that decided it. */
  facts?: Readonly<Record<string, unknown>>;
  /** Set when the policy could not be evaluated. */
  fault?: FaultKind;
}

/** What a policy check returns when the call breaks the policy. */
export interface PolicyFinding {
  message: string;
  facts?: Record<string, unknown>;
  /**
   * The question to put to the person when the conversation leaves what decides the policy unsure (a fact read as
   * `unsure`, not `no`): the call then asks instead of denying. Left out, the finding takes the policy's effect.
   */
  ask?: string;
}

/** Per-check diagnostics. */
export interface Diagnostics {
  /** Ids of the policies that were evaluated. */
  policies: readonly string[];
  /** Faults met while evaluating, one per policy that could not be decided. */
  errors: readonly { policy: string; fault: FaultKind; message: string }[];
  /** Time spent deciding, in microseconds. */
  durationUs: number;
}

/**
 * The runtime's answer for one tool call. Always well defined: a fault yields deny with the fault named.
 */
export interface Verdict {
  /** The decision in effect: in shadow mode always `allow`. */
  decision: Decision;
  /** The decision the policies reached (differs from `decision` only in shadow mode). */
  evaluated: Decision;
  tool: string;
  callId: string;
  violations: readonly Violation[];
  diagnostics: Diagnostics;
}
