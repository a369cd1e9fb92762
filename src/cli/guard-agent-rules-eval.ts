import { AgentGuardError } from '../errors.ts';
import { writeAtomically } from '../files.ts';
import {
  evaluateWebRules,
  modeFunctions,
  readWebRuleSet,
  summarizeWebRules,
  type WebRuleLine,
  type WebRuleMode,
  type WebRuleSummary,
  webDemonstrations,
  webTasks,
} from '../guard-agent/eval/web-rules.ts';
import { GuardAgent } from '../guard-agent/guard-agent.ts';
import { DemonstrationMemory } from '../guard-agent/memory.ts';
import { createToolbox } from '../guard-agent/toolbox/toolbox.ts';
import { Budget } from '../llm/budget.ts';
import { modelTimeoutMs, recordedModelFor } from './guard-agent-check.ts';
import { callSequence } from './guard-agent-eval.ts';

const isMode = (mode: string): mode is WebRuleMode => mode === 'loop' || mode === 'classify';

/**
 * `agentguard eval guard-agent-rules`: the guard agent on a rule request over web tasks, in each mode asked (`loop`:
 * CheckRule only, the model reads every task itself; `classify`: CheckRule and Classify, one short call per new task),
 * one fresh memory per mode seeded with that mode's demonstrations, one model (recorded) for all: accuracy against
 * the labels, missed violations, false denials and model calls per task.
 */
export async function evalGuardAgentRulesCommand(options: {
  data: string;
  modes: string;
  limit?: string;
  loopLimit: string;
  model?: string;
  baseUrl?: string;
  record?: string;
  replay?: string;
  out?: string;
  timeout: string;
  maxCalls: string;
  json?: boolean;
}): Promise<void> {
  const modes = options.modes.split(',').map((mode) => mode.trim());
  const unknown = modes.filter((mode) => !isMode(mode));
  if (unknown.length > 0)
    throw new AgentGuardError('invalid_input', `unknown mode \`${unknown.join(', ')}\`: use loop and/or classify`);
  if (options.model === undefined && options.replay === undefined)
    throw new AgentGuardError('invalid_input', 'no model: pass --model <provider>:<model> or --replay a recording');
  const set = await readWebRuleSet(options.data);
  const { model, finish } = await recordedModelFor(options);
  const timeoutMs = modelTimeoutMs(options.timeout);
  const toolbox = createToolbox();
  const lines: WebRuleLine[] = [];
  const summaries: WebRuleSummary[] = [];
  try {
    for (const mode of modes as WebRuleMode[]) {
      const limit = Number(mode === 'loop' ? options.loopLimit : (options.limit ?? set.tasks.length));
      const memory = DemonstrationMemory.open(':memory:');
      memory.add(...webDemonstrations(set, mode));
      const budget = new Budget({ maxCalls: Number(options.maxCalls), maxTokens: 50_000_000 });
      const agent = new GuardAgent({ model, budget, toolbox, memory, modelTimeoutMs: timeoutMs });
      const log = (line: WebRuleLine) =>
        process.stderr.write(
          `${mode} task ${line.index + 1} (${line.task_id}): ${line.verdict} (label: ${line.truth}), ${line.decided_by}, ${line.model_calls} calls${line.error === undefined ? '' : `, error: ${line.error}`}\n`,
        );
      try {
        const modeLines = await evaluateWebRules(set, mode, webTasks(set, limit), agent, budget, log);
        lines.push(...modeLines);
        summaries.push(summarizeWebRules(mode, modeLines));
      } finally {
        memory.close();
      }
    }
  } finally {
    await finish();
  }
  if (options.out !== undefined)
    await writeAtomically(options.out, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ model: model.id, modes: summaries }, null, 2)}\n`);
    return;
  }
  const report = summaries.map((summary) =>
    [
      `${summary.mode} (toolbox ${modeFunctions[summary.mode].join(', ')}) on ${summary.tasks} web tasks`,
      `  accuracy ${summary.accuracy.toFixed(4)}, missed violations ${summary.missed_violations}, false denials ${summary.false_denials}`,
      `  model calls ${summary.model_calls}, ${summary.calls_per_task.toFixed(2)} per task; per task in order: ${callSequence(lines.filter((line) => line.mode === summary.mode))}`,
      `  decided by: ${Object.entries(summary.decided_by)
        .map(([by, count]) => `${by} ${count}`)
        .join(', ')}`,
    ].join('\n'),
  );
  process.stdout.write(
    `guard agent on the rule request of ${options.data} (model: ${model.id})\n${report.join('\n')}\n`,
  );
}
