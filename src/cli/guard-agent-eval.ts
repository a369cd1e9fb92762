import { AgentGuardError } from '../errors.ts';
import { writeAtomically } from '../files.ts';
import { readEicuAc } from '../guard-agent/eval/eicu-ac.ts';
import { type EicuLoopLine, eicuTasks, evaluateGuardAgentOnEicu, summarize } from '../guard-agent/eval/eicu-loop.ts';
import { GuardAgent } from '../guard-agent/guard-agent.ts';
import { loadPostgresParser } from '../guard-agent/toolbox/postgres-parser.ts';
import { createToolbox } from '../guard-agent/toolbox/toolbox.ts';
import { Budget } from '../llm/budget.ts';
import { memoryFor, modelTimeoutMs, recordedModelFor } from './guard-agent-check.ts';

const figure = (value: number) => value.toFixed(4);

/** Model calls per task in order, runs of equal counts shortened: `2, 0 ×19`. */
export function callSequence(lines: readonly { model_calls: number }[]): string {
  const runs: { calls: number; count: number }[] = [];
  for (const line of lines) {
    const last = runs.at(-1);
    if (last?.calls === line.model_calls) last.count++;
    else runs.push({ calls: line.model_calls, count: 1 });
  }
  return runs.map((run) => (run.count === 1 ? `${run.calls}` : `${run.calls} ×${run.count}`)).join(', ');
}

/**
 * `agentguard eval guard-agent-loop`: the guard agent's plan-code-debug loop (not a reviewed program) on EICU-AC
 * tasks, one memory across them, scored against SQLite's own reading: LPA, LPP, LPR, CCA and model calls per task.
 */
export async function evalGuardAgentLoopCommand(options: {
  dataset: string;
  data: string;
  limit: string;
  model?: string;
  baseUrl?: string;
  record?: string;
  replay?: string;
  memory?: string;
  out?: string;
  timeout: string;
  maxCalls: string;
  json?: boolean;
}): Promise<void> {
  if (options.dataset !== 'eicu-ac')
    throw new AgentGuardError(
      'invalid_input',
      `unknown dataset \`${options.dataset}\`: the loop is measured on eicu-ac`,
    );
  if (options.model === undefined && options.replay === undefined)
    throw new AgentGuardError('invalid_input', 'no model: pass --model <provider>:<model> or --replay a recording');
  await loadPostgresParser();
  const scenario = await readEicuAc(options.data);
  const { model, finish } = await recordedModelFor(options);
  const memory = await memoryFor(options);
  const budget = new Budget({ maxCalls: Number(options.maxCalls), maxTokens: 50_000_000 });
  const toolbox = createToolbox();
  const agent = new GuardAgent({ model, budget, toolbox, memory, modelTimeoutMs: modelTimeoutMs(options.timeout) });
  const log = (line: EicuLoopLine) =>
    process.stderr.write(
      `task ${line.index + 1}: ${line.role}, ${line.verdict} (SQLite: ${line.truth}), ${line.decided_by}, ${line.model_calls} calls${line.error === undefined ? '' : `, error: ${line.error}`}\n`,
    );
  let lines: EicuLoopLine[];
  try {
    lines = await evaluateGuardAgentOnEicu(
      scenario,
      eicuTasks(scenario, Number(options.limit)),
      agent,
      budget,
      toolbox,
      log,
    );
  } finally {
    await finish();
    memory.close();
  }
  if (options.out !== undefined)
    await writeAtomically(options.out, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  const summary = summarize(lines);
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ model: model.id, ...summary }, null, 2)}\n`);
    return;
  }
  const sequence = callSequence(lines);
  process.stdout.write(
    `${[
      `guard agent loop on ${summary.tasks} EICU-AC tasks, scored against SQLite's own reading (model: ${model.id})`,
      `${'LPA'.padStart(8)}${'LPP'.padStart(8)}${'LPR'.padStart(8)}${'CCA'.padStart(8)}`,
      `${figure(summary.lpa).padStart(8)}${figure(summary.lpp).padStart(8)}${figure(summary.lpr).padStart(8)}${figure(summary.cca).padStart(8)}`,
      `model calls: ${summary.model_calls}, ${summary.calls_per_task.toFixed(2)} per task; per task in order: ${sequence}`,
      `decided by: ${Object.entries(summary.decided_by)
        .map(([by, count]) => `${by} ${count}`)
        .join(', ')}`,
    ].join('\n')}\n`,
  );
}
