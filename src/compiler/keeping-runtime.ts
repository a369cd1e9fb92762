import type { GuardContext } from '../model/guard-context.ts';
import type { ToolCall } from '../model/tool-call.ts';
import type { Verdict } from '../model/verdict.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';

/**
 * A runtime that keeps every verdict it gives, in order: a replay's lines name the policies a call broke, these tell
 * which of them asked and which denied.
 *
 * @example
 * ```ts
 * const runtime = new KeepingRuntime([pack]);
 * await replay(runtime, runs, fresh);
 * runtime.verdicts; // one per replayed call, in the order of the replay's lines
 * ```
 */
export class KeepingRuntime extends GuardRuntime {
  readonly verdicts: Verdict[] = [];

  override async check(call: ToolCall, context: GuardContext): Promise<Verdict> {
    const verdict = await super.check(call, context);
    this.verdicts.push(verdict);
    return verdict;
  }
}
