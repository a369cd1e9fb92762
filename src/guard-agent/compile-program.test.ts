import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { Budget } from '../llm/budget.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';
import { compileGuardProgram } from './compile-program.ts';
import { GuardAgent } from './guard-agent.ts';
import { DemonstrationMemory } from './memory.ts';
import { loadProgramPack } from './program-pack.ts';
import { loadPostgresParser } from './toolbox/postgres-parser.ts';
import { createToolbox } from './toolbox/toolbox.ts';

before(() => loadPostgresParser());
const request = 'Nurses may read only uniquepid and gender of patient.';
const schema = { patient: ['uniquepid', 'gender', 'age'] };
const demo = (sql: string, label: 0 | 1) => ({
  request,
  input: JSON.stringify({ schema }),
  output: JSON.stringify({ query: sql }),
  plan: 'check reads',
  code: 'function guard() {}',
  label,
  source: 'user' as const,
});
const program = (body: string) => JSON.stringify({ code: `function program(input, output) {\n${body}\n}` });
const right = program(`  if (typeof output?.query !== 'string') return { abstain: 'no query' };
  const access = SqlAccess(output.query, input.schema);
  if (!access.ok) return { label: 1, reasons: [{ kind: 'undetermined', message: access.reason }] };
  const decision = CheckAccess({ patient: ['uniquepid', 'gender'] }, access.tables);
  return { label: decision.denied ? 1 : 0, reasons: [] };`);
const memoryWith = () => {
  const memory = DemonstrationMemory.open(':memory:');
  memory.add(
    demo('SELECT age FROM patient', 1),
    demo('SELECT gender FROM patient', 0),
    demo('SELECT * FROM patient', 1),
  );
  return memory;
};

describe('compileGuardProgram', () => {
  it('writes a program once it decides every demonstration, and the agent then needs no model', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'agentguard-compiled-')), 'pack');
    const model = new ScriptedModel([program('  return { label: 0, reasons: [] };'), right]);
    const memory = memoryWith();
    const compiled = await compileGuardProgram({
      request,
      spec: 'a SQL agent',
      memory,
      model,
      budget: new Budget({ maxCalls: 9, maxTokens: 1e9 }),
      toolbox: createToolbox(),
      out,
    });
    assert.deepEqual(compiled, { state: 'green', passed: 3, total: 3, repairs: 1, failures: [] });
    assert.match(model.requests[1]?.messages[0]?.content ?? '', /task 1: expected label 1, the program label 0/);
    const pack = await loadProgramPack(out);
    assert.equal(pack.reviewed, false);
    const idle = new ScriptedModel([]);
    const agent = new GuardAgent({
      model: idle,
      budget: new Budget({ maxCalls: 9, maxTokens: 1e9 }),
      toolbox: createToolbox(),
      memory,
      compiled: pack,
    });
    const result = await agent.check({
      request,
      spec: '',
      input: { schema },
      output: { query: 'SELECT uniquepid, age FROM patient' },
    });
    assert.deepEqual([result.decidedBy, result.label], ['compiled', 1]);
    assert.equal(idle.requests.length, 0);
  });
  it('writes nothing when the program never decides every demonstration', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'agentguard-compiled-')), 'pack');
    const wrong = program('  return { label: 0, reasons: [] };');
    const compiled = await compileGuardProgram({
      request,
      spec: '',
      memory: memoryWith(),
      model: new ScriptedModel([wrong, wrong, wrong, wrong]),
      budget: new Budget({ maxCalls: 9, maxTokens: 1e9 }),
      toolbox: createToolbox(),
      out,
    });
    assert.equal(compiled.state, 'failing');
    assert.equal(compiled.passed, 1);
    assert.equal(existsSync(out), false);
  });
  it('seeds memory from a file', async () => {
    const memory = DemonstrationMemory.open(':memory:');
    const file = join(await mkdtemp(join(tmpdir(), 'agentguard-seed-')), 'seed.json');
    await (await import('node:fs/promises')).writeFile(
      file,
      JSON.stringify([{ request, input: 'i', output: 'o', plan: 'p', code: 'c', label: 1 }]),
    );
    assert.equal(await memory.seed(file), 1);
    assert.equal(memory.all()[0]?.source, 'seed');
  });
});
