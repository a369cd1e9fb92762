import type { Toolbox } from './toolbox/toolbox.ts';

/** What the guard agent guards: the target agent's input and output (text or JSON). */
export interface GuardTask {
  input: unknown;
  output: unknown;
}

/** Why a task was denied: the inaccessible tables and columns, or the broken rules. */
export type GuardReason =
  | { kind: 'access'; table: string; columns: string[] }
  | { kind: 'rule'; action: string; violation: string }
  | { kind: 'undetermined'; message: string };

/**
 * Why generated guard code denied, as the code prompt declares it: the role and the inaccessible tables with their
 * columns, the broken rule with the user information it was checked against, why the task could not be decided, or
 * (granting) why no rule of the request concerns the task.
 */
export type AgentReason =
  | { kind: 'access'; role: string; tables: string[]; columns: Record<string, string[]> }
  | { kind: 'rule'; rule: string; user: Record<string, unknown> }
  | { kind: 'undetermined'; why: string }
  | { kind: 'unconcerned'; why: string };

/** The guard's decision: label 0 grants, 1 denies; the guarded output is the agent's output, or null when denied. */
export interface GuardDecision {
  label: 0 | 1;
  reasons: GuardReason[];
  guardedOutput: unknown;
}

/** A program that decides a guard request, or abstains (the per-request agent loop then decides). */
export type GuardProgram = (task: GuardTask, toolbox: Toolbox) => GuardDecision | { abstain: string };
