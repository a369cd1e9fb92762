import type { GuardContext } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { LoadedTool } from '../pack/load-pack.ts';
import { evaluateChecks, type PolicyOutcome } from './policy-check.ts';

/**
 * Where guard code runs. Both executors evaluate the given enforced policies and never throw.
 */
export interface GuardExecutor {
  evaluate(
    tool: LoadedTool,
    policies: readonly string[],
    call: ToolCall,
    context: GuardContext,
    timeoutMs: number,
  ): Promise<PolicyOutcome[]>;
  close(): Promise<void>;
}

/**
 * Runs reviewed guard code in the current thread: the fastest path. An asynchronous hang is cut off at the time
 * budget; a synchronous endless loop cannot be, which is why only reviewed code runs here.
 */
export class InProcessExecutor implements GuardExecutor {
  evaluate(
    tool: LoadedTool,
    policies: readonly string[],
    call: ToolCall,
    context: GuardContext,
    timeoutMs: number,
  ): Promise<PolicyOutcome[]> {
    const checks = policies.map((id) => {
      const policy = tool.policies.find((candidate) => candidate.spec.id === id);
      return policy?.missingReason === undefined
        ? { policy: id, check: policy?.check }
        : { policy: id, check: policy.check, missingReason: policy.missingReason };
    });
    return evaluateChecks(checks, call.arguments, context, call, timeoutMs);
  }

  async close(): Promise<void> {}
}
