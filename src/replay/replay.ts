import type { Decision } from '../model/verdict.ts';
import type { GuardRuntime } from '../runtime/guard-runtime.ts';
import type { LookupsFactory } from './environment.ts';
import { compareResults } from './faithfulness.ts';
import { type LookupRecord, recordingInvoker } from './recording-invoker.ts';
import type { Trajectory } from './trajectories.ts';

/** One line of a replay's output: the verdict on one recorded tool call. */
export interface ReplayLine {
  trajectory: string;
  message_index: number;
  call_index: number;
  tool: string;
  /** The call's arguments, as the agent made the call. */
  arguments: Record<string, unknown>;
  verdict: Decision;
  violations: { policy: string; message: string }[];
  /** The lookups the guards made to decide the call, with what they returned then. */
  lookups: LookupRecord[];
  duration_us: number;
}

/** A recorded tool result that the port does not reproduce. */
export interface Mismatch {
  trajectory: string;
  message_index: number;
  call_index: number;
  tool: string;
  kind: 'address_rename' | 'different';
  recorded: string;
  recomputed: string;
}

/** What a replay found. */
export interface ReplayResult {
  trajectories: number;
  lines: ReplayLine[];
  /** Calls whose recorded result was compared with the port's. */
  compared: number;
  mismatches: Mismatch[];
}

/**
 * Replays recorded runs: each from a fresh environment; every assistant tool call is checked with the conversation
 * before its message. Where the environment runs the domain's tools, the call is then applied as the run applied it, so
 * the state follows the run, and the port's result is compared with the recorded one. `clock` is the policy's time
 * where the environment brings none (default: now).
 *
 * @example
 * ```ts
 * const result = await replay(runtime, await readTrajectories(file), fresh);
 * ```
 */
export async function replay(
  runtime: GuardRuntime,
  runs: readonly Trajectory[],
  fresh: LookupsFactory,
  onProgress?: (done: number, total: number) => void,
  clock: Date = new Date(),
): Promise<ReplayResult> {
  const result: ReplayResult = { trajectories: runs.length, lines: [], compared: 0, mismatches: [] };
  for (const [done, run] of runs.entries()) {
    const environment = fresh();
    for (const { call, result: recorded, messageIndex, callIndex } of run.conversation.toolCalls()) {
      const { invoker, taken } = recordingInvoker(environment.invoker);
      const context = { conversation: run.conversation.before(messageIndex), invoker, now: environment.now ?? clock };
      const verdict = await runtime.check(call, context);
      result.lines.push({
        trajectory: run.id,
        message_index: messageIndex,
        call_index: callIndex,
        tool: call.name,
        arguments: call.arguments,
        verdict: verdict.decision,
        violations: verdict.violations.map((violation) => ({ policy: violation.policy, message: violation.message })),
        lookups: taken(),
        duration_us: verdict.diagnostics.durationUs,
      });
      const recomputed = environment.run?.(call.name, call.arguments);
      if (recorded === undefined || recomputed === undefined) continue;
      result.compared++;
      const kind = compareResults(recorded, recomputed);
      if (kind !== 'same') {
        result.mismatches.push({
          trajectory: run.id,
          message_index: messageIndex,
          call_index: callIndex,
          tool: call.name,
          kind,
          recorded,
          recomputed,
        });
      }
    }
    onProgress?.(done + 1, runs.length);
  }
  return result;
}
