import type { GuardContext } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { GuardPack, LoadedTool } from '../pack/load-pack.ts';
import { type CheckToRun, evaluateChecks, type PolicyOutcome } from './policy-check.ts';
import { WorkerExecutor } from './worker-executor.ts';

/**
 * Where guard code runs. Both executors evaluate the given enforced policies and never throw; the outcomes come back
 * at once when every check answered synchronously.
 */
export interface GuardExecutor {
  evaluate(
    tool: LoadedTool,
    policies: readonly string[],
    call: ToolCall,
    context: GuardContext,
    timeoutMs: number,
  ): PolicyOutcome[] | Promise<PolicyOutcome[]>;
  /** The given policies of a tool whose checks cannot be loaded where this executor runs them, with why. */
  loadFailures(tool: LoadedTool, policies: readonly string[]): Promise<PolicyLoadFailure[]>;
  close(): Promise<void>;
}

/** A policy of a tool whose check cannot be loaded, and why. */
export interface PolicyLoadFailure {
  policy: string;
  reason: string;
}

/**
 * Runs reviewed guard code in the current thread: the fastest path. An asynchronous hang is cut off at the time
 * budget; a synchronous endless loop cannot be, which is why only reviewed code runs here.
 */
export class InProcessExecutor implements GuardExecutor {
  /** Each tool's checks by policy id, looked up once. */
  private readonly checks = new WeakMap<LoadedTool, Map<string, CheckToRun>>();
  /** The checks of a list of policy ids (the runtime passes the same list for every call of a tool), looked up once. */
  private readonly lists = new WeakMap<readonly string[], CheckToRun[]>();

  private checksOf(tool: LoadedTool): Map<string, CheckToRun> {
    let checks = this.checks.get(tool);
    if (checks === undefined) {
      checks = new Map(
        tool.policies.map((policy) => [
          policy.spec.id,
          policy.missingReason === undefined
            ? { policy: policy.spec.id, check: policy.check }
            : { policy: policy.spec.id, check: policy.check, missingReason: policy.missingReason },
        ]),
      );
      this.checks.set(tool, checks);
    }
    return checks;
  }

  evaluate(
    tool: LoadedTool,
    policies: readonly string[],
    call: ToolCall,
    context: GuardContext,
    timeoutMs: number,
  ): PolicyOutcome[] | Promise<PolicyOutcome[]> {
    let checks = this.lists.get(policies);
    if (checks === undefined) {
      const known = this.checksOf(tool);
      checks = policies.map((id) => known.get(id) ?? { policy: id, check: undefined });
      this.lists.set(policies, checks);
    }
    return evaluateChecks(checks, call.arguments, context, call, timeoutMs);
  }

  async loadFailures(tool: LoadedTool, policies: readonly string[]): Promise<PolicyLoadFailure[]> {
    const known = this.checksOf(tool);
    return policies.flatMap((policy) => {
      const check = known.get(policy);
      if (check?.check !== undefined) return [];
      return [{ policy, reason: check?.missingReason ?? 'the guard code has no check for it' }];
    });
  }

  async close(): Promise<void> {}
}

/**
 * Where a pack's guard code runs: reviewed code in the current thread, any other in a worker.
 *
 * @example
 * ```ts
 * const executor = executorFor(await loadPack('packs/tau-airline'));
 * ```
 */
export function executorFor(pack: GuardPack): GuardExecutor {
  return pack.manifest.reviewed ? new InProcessExecutor() : new WorkerExecutor(pack);
}
