/**
 * Writes `data/eicu-ac/guard-agent-loop.scripted.recording.json`: a recording of the guard agent's loop on the first
 * 20 EICU-AC tasks whose answers (one plan and one guard code, below) were written by people. It is labelled as
 * scripted; it is not a model's output. It shows the loop and the reuse of kept code replaying offline:
 * `node scripts/record-eicu-guard-agent.ts`, then `npm run eval:guard-agent -- --replay <that file>`.
 */
import { fileURLToPath } from 'node:url';
import { readEicuAc } from '../src/guard-agent/eval/eicu-ac.ts';
import { eicuGuardRequest, eicuTasks, evaluateGuardAgentOnEicu, summarize } from '../src/guard-agent/eval/eicu-loop.ts';
import { GuardAgent } from '../src/guard-agent/guard-agent.ts';
import { DemonstrationMemory } from '../src/guard-agent/memory.ts';
import { createToolbox } from '../src/guard-agent/toolbox/toolbox.ts';
import { Budget } from '../src/llm/budget.ts';
import { RecordingModel } from '../src/llm/cassette.ts';
import { ScriptedModel } from '../src/llm/scripted-model.ts';

const data = fileURLToPath(new URL('../data/eicu-ac/eicu-ac.json', import.meta.url));
const out = fileURLToPath(new URL('../data/eicu-ac/guard-agent-loop.scripted.recording.json', import.meta.url));

const scenario = await readEicuAc(data);
const { request } = eicuGuardRequest(scenario);
const plan = [
  "Take the user's role from the input and the SQLite query from the output's sql.",
  'Find what the query reads with SqliteReads (SQLite dialect) over the eICU schema; deny as undetermined when it cannot tell.',
  "Compare the reads with the role's readable columns with CheckAccess; deny naming the inaccessible tables, else grant.",
];
const code = `function guard(input, output) {
  const schema = ${JSON.stringify(scenario.schema)};
  const roles = ${JSON.stringify(scenario.roles)};
  const allowed = roles[input.role];
  if (allowed === undefined) return { label: 1, reasons: [{ kind: 'undetermined', why: 'unknown role ' + input.role }] };
  const reads = SqliteReads(output.sql, schema);
  if (!reads.ok) return { label: 1, reasons: [{ kind: 'undetermined', why: reads.reason }] };
  const access = CheckAccess(allowed, reads.tables);
  if (!access.denied) return { label: 0, reasons: [] };
  return { label: 1, reasons: [{ kind: 'access', role: input.role, tables: Object.keys(access.inaccessible), columns: access.inaccessible }] };
}`;
const model = new RecordingModel(
  new ScriptedModel([JSON.stringify({ plan }), JSON.stringify({ code })]),
  'scripted: a plan and guard code written by people for this recording, not a model output',
);
const budget = new Budget({ maxCalls: 10, maxTokens: 1e9 });
const toolbox = createToolbox();
const memory = DemonstrationMemory.open(':memory:');
const agent = new GuardAgent({ model, budget, toolbox, memory });
const lines = await evaluateGuardAgentOnEicu(scenario, eicuTasks(scenario, 20), agent, budget, toolbox);
await model.save(out);
process.stdout.write(`${JSON.stringify({ request: request.length, ...summarize(lines) })}\n`);
