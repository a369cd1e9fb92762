import { AgentGuardError } from '../errors.ts';
import { fromOpenAIChat } from '../model/openai-chat.ts';
import { replay } from '../replay/replay.ts';
import type { Trajectory } from '../replay/trajectories.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import type { TauDomain } from './domain.ts';
import { type CallVerdict, type EpisodeResult, notAnObject, type PackInUse } from './episode.ts';

/**
 * Decides the write calls of unguarded runs again with `pack`, from the runs alone: an unguarded agent never saw a
 * pack, so its verdicts are a function of its trajectory and the pack. Each run is replayed as `agentguard replay`
 * does: its tool calls in order, each decided with the conversation before it, then applied to fresh data, so every
 * call is decided on the data as they were when it was made. Returns the runs with the new verdicts (`info.pack`
 * marked `redecided`); throws when the domain's tools do not give a run's recorded results again, since the data
 * the later calls were decided on would then not be the run's.
 *
 * @example
 * ```ts
 * const runs = await redecideRuns(domain, { loaded: pack, used: { path: 'packs/tau-retail', sha256 } }, writeTools, stored);
 * ```
 */
export async function redecideRuns(
  domain: TauDomain,
  pack: PackInUse,
  writeTools: ReadonlySet<string>,
  runs: readonly EpisodeResult[],
): Promise<EpisodeResult[]> {
  const trajectories: Trajectory[] = runs.map((run, index) => ({
    id: String(index),
    reward: run.reward,
    conversation: fromOpenAIChat(run.traj, 'runs', `$[${index}].traj`),
  }));
  const runtime = new GuardRuntime([pack.loaded]);
  try {
    const fresh = () => {
      const environment = domain.fresh();
      return { run: environment.run, invoker: environment.invoker, now: domain.now };
    };
    const { lines, mismatches } = await replay(runtime, trajectories, fresh, undefined, domain.now);
    // A call whose arguments were not an object reached no guard and no tool in the run (replayed, it fails alike).
    const unparsed = (line: { trajectory: string; message_index: number; tool: string }) =>
      runs[Number(line.trajectory)]?.traj[line.message_index + 1]?.content === notAnObject(line.tool);
    const mismatch = mismatches.find((found) => !unparsed(found));
    if (mismatch !== undefined) {
      const run = runs[Number(mismatch.trajectory)];
      throw new AgentGuardError(
        'invalid_input',
        `run ${run?.task_id}-${run?.trial}: message ${mismatch.message_index}: \`${mismatch.tool}\` does not give its recorded result again, so its verdicts cannot be decided again`,
      );
    }
    const verdicts = runs.map((): CallVerdict[] => []);
    for (const line of lines) {
      if (!writeTools.has(line.tool) || unparsed(line)) continue;
      verdicts[Number(line.trajectory)]?.push({
        message_index: line.message_index,
        tool: line.tool,
        arguments: line.arguments,
        decision: line.verdict,
        ran: true,
        violations: line.violations,
        duration_us: line.duration_us,
      });
    }
    return runs.map((run, index) => ({
      ...run,
      info: { ...run.info, verdicts: verdicts[index] ?? [], pack: { ...pack.used, redecided: true } },
    }));
  } finally {
    await runtime.close();
  }
}
