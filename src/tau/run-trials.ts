import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentGuardError } from '../errors.ts';
import { writeAtomically } from '../files.ts';
import { type EpisodeOptions, type EpisodeResult, type Guard, type PackUsed, runEpisode } from './episode.ts';
import { redecideRuns } from './redecide.ts';

/** One arm of the comparison: the agent guarded by the pack, or unguarded (with the pack in shadow, if one is given). */
export interface Arm {
  name: 'guarded' | 'unguarded';
  guard?: Guard;
}

/** What a run of trials needs: the episode's settings less the task, trial and guard. */
export interface TrialsOptions extends Omit<EpisodeOptions, 'taskId' | 'trial' | 'guard' | 'task'> {
  arms: readonly Arm[];
  /** Task indexes. */
  tasks: readonly number[];
  trials: number;
  /** Folder of the run files, `<arm>.json` each. */
  out: string;
  /** Episodes run at once. Default 1. */
  concurrency?: number;
  /** Called after each episode with the episodes done and the total (the resumed ones included), and the episode. */
  onProgress?: (done: number, total: number, arm: string, last: EpisodeResult) => void;
}

/** The run file of an arm. */
export const armFile = (out: string, arm: string) => join(out, `${arm}.json`);

const named = (pack: PackUsed) => `\`${pack.path}\` (sha256 ${pack.sha256.slice(0, 12)})`;

/**
 * An arm's stored runs with verdicts of its guard's pack: unguarded ones decided again where another pack (or none)
 * decided them; guarded ones of another pack are refused, since their agent saw that pack.
 */
async function withVerdictsOf(
  options: TrialsOptions,
  arm: Arm,
  file: string,
  runs: EpisodeResult[],
): Promise<EpisodeResult[]> {
  const pack = arm.guard?.pack;
  if (arm.guard === undefined || pack === undefined) return runs;
  const other = (run: EpisodeResult) => run.info.pack?.sha256 !== pack.used.sha256;
  if (arm.name === 'guarded') {
    const decided = runs.find((run) => run.info.pack !== undefined && other(run))?.info.pack;
    if (decided !== undefined)
      throw new AgentGuardError(
        'invalid_input',
        `the guarded runs in \`${file}\` were made with pack ${named(decided)}, not ${named(pack.used)}: their agent saw that pack, so they cannot be decided again; give that pack or another \`--out\``,
      );
    return runs;
  }
  const stale = runs.filter(other);
  if (stale.length === 0) return runs;
  const redecided = await redecideRuns(options.domain, pack, arm.guard.writeTools, stale);
  const list = runs.map((run) => (other(run) ? (redecided.shift() as EpisodeResult) : run));
  await writeAtomically(file, JSON.stringify(list, null, 1));
  return list;
}

async function readRuns(file: string): Promise<EpisodeResult[]> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as EpisodeResult[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Runs every task `trials` times on every arm and writes each arm's runs to `<out>/<arm>.json` as tau-bench trajectory
 * JSON, rewritten after every episode, so an interrupted run resumes: runs already in the files are kept, and only the
 * missing ones (and those that ended in an error) run again. Stored unguarded runs are decided again with the arm's pack where
 * another pack (or none) decided them; stored guarded runs of another pack are refused. Trials go in order, each over all tasks and arms, so the
 * arms stay comparable at any point. Returns each arm's runs.
 *
 * @example
 * ```ts
 * const runs = await runTrials({ domain, agent, user, arms, tasks: [0, 1, 2], trials: 3, out: 'tau-runs' });
 * ```
 */
export async function runTrials(options: TrialsOptions): Promise<Map<string, EpisodeResult[]>> {
  await mkdir(options.out, { recursive: true });
  const runs = new Map<string, EpisodeResult[]>();
  for (const arm of options.arms) {
    const file = armFile(options.out, arm.name);
    const kept = (await readRuns(file)).filter((run) => run.info.error === undefined);
    runs.set(arm.name, await withVerdictsOf(options, arm, file, kept));
  }
  const jobs: { arm: Arm; taskId: number; trial: number }[] = [];
  for (let trial = 0; trial < options.trials; trial++) {
    for (const taskId of options.tasks) {
      for (const arm of options.arms) {
        const done = runs.get(arm.name)?.some((run) => run.task_id === taskId && run.trial === trial);
        if (!done) jobs.push({ arm, taskId, trial });
      }
    }
  }
  const total = options.trials * options.tasks.length * options.arms.length;
  let finished = total - jobs.length;
  let writing = Promise.resolve();
  const worker = async () => {
    for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) {
      const { arm, taskId, trial } = job;
      const result = await runEpisode({
        ...options,
        taskId,
        trial,
        ...(arm.guard === undefined ? {} : { guard: arm.guard }),
      });
      const list = runs.get(arm.name) ?? [];
      list.push(result);
      list.sort((a, b) => a.trial - b.trial || a.task_id - b.task_id);
      writing = writing.then(() => writeAtomically(armFile(options.out, arm.name), JSON.stringify(list, null, 1)));
      await writing;
      options.onProgress?.(++finished, total, arm.name, result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  const wanted = new Set(options.tasks);
  for (const [arm, list] of runs)
    runs.set(
      arm,
      list.filter((run) => wanted.has(run.task_id) && run.trial < options.trials),
    );
  return runs;
}
