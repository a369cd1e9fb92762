import type { Message } from '../model/conversation.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { PolicyOutcome } from '../runtime/policy-check.ts';

/** One run of a policy check in the sandbox, with its context as plain data. */
export interface SandboxCase {
  call: ToolCall;
  messages: readonly Message[];
  lookups: readonly {
    tool: string;
    arguments: Record<string, unknown>;
    result?: unknown;
    error?: string | undefined;
  }[];
  /** The policy's clock, in milliseconds since the epoch. */
  now: number;
}

/** What to run: TypeScript sources by path (relative paths only), the module whose `check` to call, and its cases. */
export interface SandboxRun {
  policy: string;
  files: ReadonlyMap<string, string>;
  entry: string;
  cases: readonly SandboxCase[];
  /** Time limit for all cases together. */
  timeoutMs: number;
}

/**
 * The one seam to isolation for untrusted code: runs a policy's check on cases where it can reach nothing but its
 * own sources and the data it is given, within time and memory limits. Never throws for a fault of the code: every
 * case gets an outcome.
 */
export interface Sandbox {
  runChecks(run: SandboxRun): Promise<PolicyOutcome[]>;
}
