import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Budget } from '../llm/budget.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';
import { GuardAgent, type GuardQuery } from './guard-agent.ts';
import { DemonstrationMemory } from './memory.ts';
import { loadProgramPack } from './program-pack.ts';
import { loadPostgresParser } from './toolbox/postgres-parser.ts';
import { createToolbox } from './toolbox/toolbox.ts';

before(() => loadPostgresParser());

const query: GuardQuery = {
  request: 'A nurse may read only the columns listed for the nursing role.',
  spec: 'The agent answers questions about patients by writing SQL over the eICU database.',
  input: { role: 'nursing', question: 'How old is patient 027-1?' },
  output: { query: "SELECT age FROM patient WHERE uniquepid = '027-1'", answer: '54' },
};
const plan = JSON.stringify({
  plan: [
    'Find what the query reads.',
    'Compare it with the nursing permissions.',
    'Deny when anything is not readable.',
  ],
});
const code = (body: string) => JSON.stringify({ code: `function guard(input, output) {\n${body}\n}` });
const good = code(`  const access = SqlAccess(output.query, { patient: ['uniquepid', 'age', 'gender'] });
  if (!access.ok) return { label: 1, reasons: [{ kind: 'undetermined', message: access.reason }] };
  const decision = CheckAccess({ patient: ['uniquepid', 'gender'] }, access.tables);
  return { label: decision.denied ? 1 : 0, reasons: Object.entries(decision.inaccessible).map(([table, columns]) => ({ kind: 'access', table, columns })) };`);
const agent = (answers: string[], extra: Partial<ConstructorParameters<typeof GuardAgent>[0]> = {}) => {
  const model = new ScriptedModel(answers);
  const memory = DemonstrationMemory.open(':memory:');
  const guard = new GuardAgent({
    model,
    budget: new Budget({ maxCalls: 20, maxTokens: 1e9 }),
    toolbox: createToolbox(),
    memory,
    ...extra,
  });
  return { model, memory, guard };
};

describe('GuardAgent', () => {
  it('plans, writes code, runs it in the sandbox and takes the verdict from the executed code', async () => {
    const { guard, model } = agent([plan, good]);
    const result = await guard.check(query);
    assert.equal(result.decidedBy, 'agent');
    assert.equal(result.label, 1);
    assert.deepEqual(result.reasons, [{ kind: 'access', table: 'patient', columns: ['age'] }]);
    assert.equal(result.guardedOutput, null);
    assert.equal(model.requests.length, 2);
    assert.match(model.requests[0]?.messages[0]?.content ?? '', /<untrusted-agent-output>/);
  });
  it('debugs code that errors twice, then takes the verdict of the code that runs', async () => {
    const { guard, model } = agent([
      plan,
      code('  return output.query.nope.length;'),
      code('  return { label: 2 };'),
      good,
    ]);
    const result = await guard.check(query);
    assert.equal(result.label, 1);
    assert.equal(result.attempts.length, 3);
    assert.match(result.attempts[0]?.error ?? '', /the code failed: .*Cannot read properties of undefined/);
    assert.match(result.attempts[1]?.error ?? '', /label 2, expected 0 or 1/);
    assert.match(model.requests[2]?.messages[0]?.content ?? '', /It failed:\nthe code failed/);
  });
  it('denies, with the reason, when no code ever runs clean', async () => {
    const broken = code('  throw new Error("always");');
    const { guard } = agent([plan, broken, broken, broken, broken]);
    const result = await guard.check(query);
    assert.equal(result.decidedBy, 'failed');
    assert.equal(result.label, 1);
    assert.equal(result.attempts.length, 4);
    assert.match(
      JSON.stringify(result.reasons),
      /no guard code ran clean after 4 tries; last error: the code failed: always/,
    );
  });
  it('rejects code that reaches outside the toolbox before running it', async () => {
    const { guard } = agent([
      plan,
      code('  return process.env.SECRET ? { label: 0, reasons: [] } : { label: 0, reasons: [] };'),
      good,
    ]);
    const result = await guard.check(query);
    assert.match(result.attempts[0]?.error ?? '', /rejected before running: uses `process`/);
    assert.equal(result.label, 1);
  });
  it('lets a compiled program decide without the model, and falls back to the loop when it abstains', async () => {
    const compiled = await loadProgramPack(fileURLToPath(new URL('../../packs/sql-access-control/', import.meta.url)));
    const first = agent([], { compiled });
    const decided = await first.guard.check({
      ...query,
      input: { permissions: { patient: ['uniquepid', 'gender'] }, schema: { patient: ['uniquepid', 'age', 'gender'] } },
    });
    assert.equal(decided.decidedBy, 'compiled');
    assert.equal(decided.label, 1);
    assert.equal(first.model.requests.length, 0);
    const second = agent([plan, good], { compiled });
    const fallback = await second.guard.check(query);
    assert.equal(fallback.decidedBy, 'agent');
  });
  it('remembers confirmed cases and shows the closest to the next request', async () => {
    const { guard, memory, model } = agent([plan, good, plan, good]);
    const result = await guard.check(query);
    guard.confirm(query, result);
    assert.equal(memory.size, 1);
    await guard.check({ ...query, output: { query: "SELECT age FROM patient WHERE uniquepid = '027-2'" } });
    assert.match(model.requests[2]?.messages[0]?.content ?? '', /Demonstration 1 \(label 1\)/);
  });
});

describe('DemonstrationMemory', () => {
  it('retrieves the closest demonstrations by edit distance, closest first', () => {
    const memory = DemonstrationMemory.open(':memory:');
    const demo = (input: string, label: 0 | 1) => ({
      request: 'r',
      input,
      output: 'o',
      plan: 'p',
      code: 'c',
      label,
      source: 'seed' as const,
    });
    memory.add(
      demo('select name from head', 0),
      demo('select age from head where age > 3', 1),
      demo('totally different text here', 0),
    );
    const found = memory.retrieve('select name from heads', 'o', 2);
    assert.deepEqual(
      found.map((item) => [item.demonstration.input, item.distance]),
      [
        ['select name from head', 1],
        ['select age from head where age > 3', 16],
      ],
    );
  });
});
