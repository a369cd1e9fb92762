/**
 * Re-keys a recording of the guard agent's loop on EICU-AC onto prompts changed since it was made: the loop is run
 * again on the same tasks, and each request is answered with the next answer the recording holds for the same step
 * (its version aside), in recorded order; the new recording says so in its `source`, with the note given. Use it
 * only where the change left the sequence of requests as it was, and check that the figures come out as before.
 *
 * `node scripts/rekey-guard-agent-recording.ts --recording <file> --limit <n> --note "<what changed>"`
 */
import { parseArgs } from 'node:util';
import { readEicuAc } from '../src/guard-agent/eval/eicu-ac.ts';
import { eicuTasks, evaluateGuardAgentOnEicu, summarize } from '../src/guard-agent/eval/eicu-loop.ts';
import { GuardAgent } from '../src/guard-agent/guard-agent.ts';
import { DemonstrationMemory } from '../src/guard-agent/memory.ts';
import { loadPostgresParser } from '../src/guard-agent/toolbox/postgres-parser.ts';
import { createToolbox } from '../src/guard-agent/toolbox/toolbox.ts';
import { Budget } from '../src/llm/budget.ts';
import { inRecordedOrder, RecordingModel, readCassette } from '../src/llm/cassette.ts';

const { values } = parseArgs({
  options: {
    recording: { type: 'string' },
    limit: { type: 'string', default: '20' },
    note: { type: 'string' },
    data: { type: 'string', default: 'data/eicu-ac/eicu-ac.json' },
  },
});
if (values.recording === undefined || values.note === undefined)
  throw new Error('usage: node scripts/rekey-guard-agent-recording.ts --recording <file> --limit <n> --note "<…>"');
const cassette = await readCassette(values.recording);
const inOrder = inRecordedOrder(cassette, cassette.source);
const source = `${cassette.source}; re-keyed onto later prompts in recorded order (${values.note})`;
const model = new RecordingModel(inOrder, source);
await loadPostgresParser();
const scenario = await readEicuAc(values.data);
const budget = new Budget({ maxCalls: 400, maxTokens: 1e9 });
const toolbox = createToolbox();
const agent = new GuardAgent({ model, budget, toolbox, memory: DemonstrationMemory.open(':memory:') });
const lines = await evaluateGuardAgentOnEicu(
  scenario,
  eicuTasks(scenario, Number(values.limit)),
  agent,
  budget,
  toolbox,
);
await model.save(values.recording);
process.stdout.write(`${JSON.stringify(summarize(lines))}\n`);
