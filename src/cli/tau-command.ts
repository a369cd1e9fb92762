import { packFingerprint } from '../audit/pack-fingerprint.ts';
import { AgentGuardError } from '../errors.ts';
import { createLanguageModel } from '../llm/providers.ts';
import { loadPack } from '../pack/load-pack.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { createAgentModel } from '../tau/agent-model.ts';
import { loadDomain } from '../tau/domain.ts';
import type { AskMode } from '../tau/episode.ts';
import { formatReport, summarizeArm } from '../tau/report.ts';
import { type Arm, runTrials } from '../tau/run-trials.ts';
import { readTasks } from '../tau/task.ts';

/** Options of `agentguard tau`. */
export interface TauCommandOptions {
  domain: string;
  pack?: string;
  agentModel: string;
  userModel: string;
  baseUrl?: string;
  agentBaseUrl?: string;
  userBaseUrl?: string;
  tasks: string;
  taskFile?: string;
  trials: string;
  out: string;
  arms?: string;
  ask: AskMode;
  maxSteps: string;
  temperature: string;
  concurrency: string;
  json?: boolean;
}

function count(value: string, name: string, minimum: number): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum)
    throw new AgentGuardError(
      'invalid_input',
      `\`--${name}\` must be a whole number of at least ${minimum}, not \`${value}\``,
    );
  return number;
}

/**
 * Reads a task selection: `all`, or indexes and ranges such as `0-9,12`.
 *
 * @example
 * ```ts
 * taskSelection('0-2,7', 50); // [0, 1, 2, 7]
 * ```
 */
export function taskSelection(text: string, available: number): number[] {
  if (text === 'all') return Array.from({ length: available }, (_, index) => index);
  const selected = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    const from = Number(match?.[1]);
    const to = Number(match?.[2] ?? match?.[1]);
    if (match === null || from > to || to >= available)
      throw new AgentGuardError(
        'invalid_input',
        `\`--tasks\`: \`${part}\` is not a task index or range of 0-${available - 1} (e.g. 0-9,12)`,
      );
    for (let index = from; index <= to; index++) selected.add(index);
  }
  return [...selected].sort((a, b) => a - b);
}

function progressBar(done: number, total: number, runs: Map<string, number[]>): string {
  const width = 30;
  const filled = Math.round((done / Math.max(1, total)) * width);
  const arms = [...runs].map(
    ([arm, rewards]) => `${arm} ${rewards.filter((reward) => reward === 1).length}/${rewards.length} solved`,
  );
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} runs  ${arms.join(', ')}`;
}

/** `agentguard tau`: runs a tau-bench domain's tasks with an agent, guarded and unguarded, and reports both. */
export async function tauCommand(options: TauCommandOptions): Promise<void> {
  const domain = await loadDomain(options.domain);
  if (options.taskFile !== undefined) domain.tasks = await readTasks(options.taskFile);
  const tasks = taskSelection(options.tasks, domain.tasks.length);
  const trials = count(options.trials, 'trials', 1);
  const pack = options.pack === undefined ? undefined : await loadPack(options.pack);
  if (pack !== undefined && pack.manifest.domain !== `tau-${domain.name}`)
    throw new AgentGuardError(
      'invalid_input',
      `pack \`${options.pack}\` guards domain \`${pack.manifest.domain}\`, not \`tau-${domain.name}\``,
    );
  const inUse =
    pack === undefined || options.pack === undefined
      ? undefined
      : { loaded: pack, used: { path: options.pack, sha256: packFingerprint(pack).packSha256 } };
  const armNames = (options.arms ?? (inUse === undefined ? 'unguarded' : 'guarded,unguarded')).split(',');
  const arms: Arm[] = [];
  for (const name of armNames) {
    if (name !== 'guarded' && name !== 'unguarded')
      throw new AgentGuardError('invalid_input', `\`--arms\`: unknown arm \`${name}\` (guarded, unguarded)`);
    if (inUse === undefined) {
      if (name === 'guarded') throw new AgentGuardError('invalid_input', 'the guarded arm needs `--pack`');
      arms.push({ name });
      continue;
    }
    const writeTools = new Set(
      [...inUse.loaded.tools.values()].filter((tool) => !tool.spec.readOnly).map((tool) => tool.spec.name),
    );
    const runtime = new GuardRuntime([inUse.loaded], { shadow: name === 'unguarded' });
    arms.push({ name, guard: { runtime, writeTools, pack: inUse } });
  }
  const at = (baseUrl: string | undefined) => (baseUrl === undefined ? {} : { baseUrl });
  const temperature = Number(options.temperature);
  if (!Number.isFinite(temperature) || temperature < 0)
    throw new AgentGuardError(
      'invalid_input',
      `\`--temperature\` must be a number of at least 0, not \`${options.temperature}\``,
    );
  const rewards = new Map<string, number[]>(arms.map((arm) => [arm.name, []]));
  const tty = process.stderr.isTTY;
  const runs = await runTrials({
    domain,
    agent: {
      name: options.agentModel,
      model: createAgentModel(options.agentModel, at(options.agentBaseUrl ?? options.baseUrl)),
      temperature,
    },
    user: createLanguageModel(options.userModel, at(options.userBaseUrl ?? options.baseUrl)),
    arms,
    tasks,
    trials,
    out: options.out,
    ask: options.ask,
    maxSteps: count(options.maxSteps, 'max-steps', 1),
    concurrency: count(options.concurrency, 'concurrency', 1),
    onProgress: (done, total, arm, last) => {
      rewards.get(arm)?.push(last.reward);
      if (tty) process.stderr.write(`\r${progressBar(done, total, rewards)}`);
      else if (done % 10 === 0 || done === total) process.stderr.write(`${progressBar(done, total, rewards)}\n`);
    },
  });
  if (tty) process.stderr.write('\n');
  const summaries = [...runs].map(([arm, list]) => summarizeArm(arm, list, trials));
  if (options.json) {
    process.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
    return;
  }
  process.stdout.write(
    `tau-bench ${domain.name}: ${tasks.length} tasks x ${trials} trials; agent ${options.agentModel}, user ${options.userModel}; asks: ${options.ask}; runs in ${options.out}\n\n${formatReport(summaries, pack !== undefined)}\n`,
  );
}
