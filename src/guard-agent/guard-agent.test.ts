import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  if (!access.ok) return { label: 1, reasons: [{ kind: 'undetermined', why: access.reason }] };
  const decision = CheckAccess({ patient: ['uniquepid', 'gender'] }, access.tables);
  if (!decision.denied) return { label: 0, reasons: [] };
  return { label: 1, reasons: [{ kind: 'access', role: input.role, tables: Object.keys(decision.inaccessible), columns: decision.inaccessible }] };`);
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
    assert.deepEqual(result.reasons, [
      { kind: 'access', role: 'nursing', tables: ['patient'], columns: { patient: ['age'] } },
    ]);
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
    await guard.check({
      ...query,
      request: 'A nurse may read only the nursing columns.',
      output: { query: "SELECT age FROM patient WHERE uniquepid = '027-2'" },
    });
    assert.match(model.requests[2]?.messages[0]?.content ?? '', /Demonstration 1 \(label 1\)/);
  });
});

describe('GuardAgent code prompt and result', () => {
  it('shows the task, marked as untrusted, and declares the arguments as parsed JSON and the typed reasons', async () => {
    const { guard, model } = agent([plan, good]);
    await guard.check(query);
    const prompt = model.requests[1]?.messages[0]?.content ?? '';
    assert.match(prompt, /<untrusted-agent-input>\n.*How old is patient 027-1/);
    assert.match(prompt, /<untrusted-agent-output>\n.*SELECT age FROM patient/);
    assert.match(prompt, /arrive as parsed JSON values .* never as JSON text to parse again/);
    assert.match(prompt, /type Input = \{ role: string; question: string \};/);
    assert.match(prompt, /type Output = \{ query: string; answer: string \};/);
    assert.match(prompt, /\{ kind: 'access'; role: string; tables: string\[\]; columns: Record<string, string\[\]> \}/);
    assert.match(prompt, /\{ kind: 'rule'; rule: string; user: Record<string, unknown> \}/);
    assert.match(prompt, /\{ kind: 'undetermined'; why: string \}/);
    assert.match(prompt, /no query \(missing, null, empty, or the text "null"\) .* is denied/);
  });
  it('sends reasons that do not match the declared type back to be fixed', async () => {
    const untyped = code(`  return { label: 1, reasons: [{ kind: 'access', table: 'patient' }] };`);
    const { guard, model } = agent([plan, untyped, good]);
    const result = await guard.check(query);
    assert.match(result.attempts[0]?.error ?? '', /reasons that do not match the Reason type: at reasons\.0\.role/);
    assert.match(model.requests[2]?.messages[0]?.content ?? '', /type Reason =/);
    assert.equal(result.reasons[0]?.kind, 'access');
  });
  it('denies a task with no query: a grant without the toolbox, or after it could not determine the read, is overruled', async () => {
    const noQuery = { ...query, output: { sql: null, answer: 'no query' } };
    const skips = code(`  if (output.sql === null) return { label: 0, reasons: [] };
  return { label: 1, reasons: [{ kind: 'undetermined', why: 'unreachable' }] };`);
    const skipping = agent([plan, skips]);
    const first = await skipping.guard.check(noQuery);
    assert.deepEqual(skipping.memory.programs(query.request), [], 'overruled code is not kept for later tasks');
    assert.equal(first.label, 1);
    assert.equal(first.guardedOutput, null);
    assert.match(JSON.stringify(first.reasons), /granted without consulting the toolbox/);
    const ignores = code(`  const reads = SqliteReads(output.sql, { patient: ['uniquepid', 'age'] });
  return reads.ok ? { label: 1, reasons: [{ kind: 'undetermined', why: 'unexpected' }] } : { label: 0, reasons: [] };`);
    const second = await agent([plan, ignores]).guard.check(noQuery);
    assert.equal(second.label, 1);
    assert.match(JSON.stringify(second.reasons), /SqliteReads: no query \(null\)/);
  });
});

describe('GuardAgent on the code a chat model wrote for a task with no query', () => {
  it('denies what that code granted: nothing it consulted determined what was read', async () => {
    const run = JSON.parse(
      await readFile(new URL('./fixtures/eicu-model-run-no-query.json', import.meta.url), 'utf8'),
    ) as { input: unknown; output: unknown; plan: string[]; code: string; label_then: number };
    assert.equal(run.label_then, 0);
    const { guard } = agent([JSON.stringify({ plan: run.plan }), JSON.stringify({ code: run.code })]);
    const result = await guard.check({ ...query, input: run.input, output: run.output });
    assert.equal(result.decidedBy, 'agent');
    assert.equal(result.label, 1);
    assert.match(JSON.stringify(result.reasons), /granted without consulting the toolbox/);
  });
});

describe('GuardAgent reuse across tasks of a request', () => {
  const task = (uniquepid: string, column: string) => ({
    ...query,
    output: { query: `SELECT ${column} FROM patient WHERE uniquepid = '${uniquepid}'`, answer: '?' },
  });
  it('decides later tasks with the code kept from earlier ones, without the model', async () => {
    const { guard, model } = agent([plan, good]);
    const first = await guard.check(task('027-1', 'age'));
    assert.equal(first.decidedBy, 'agent');
    const second = await guard.check(task('027-2', 'gender'));
    assert.equal(second.decidedBy, 'program');
    assert.equal(second.label, 0);
    const third = await guard.check(task('027-3', 'age'));
    assert.deepEqual([third.decidedBy, third.label], ['program', 1]);
    assert.equal(model.requests.length, 2, 'one plan and one code for three tasks');
  });
  it('runs the loop when the kept code abstains, or no longer decides the memory demonstrations as labelled', async () => {
    const abstains = code(`  if (typeof output.query !== 'string') return { abstain: 'no query field' };
  const reads = SqliteReads(output.query, { patient: ['uniquepid', 'age', 'gender'] });
  if (!reads.ok) return { label: 1, reasons: [{ kind: 'undetermined', why: reads.reason }] };
  return { label: 0, reasons: [] };`);
    const { guard, model, memory } = agent([plan, abstains, plan, good]);
    assert.equal((await guard.check(task('027-1', 'gender'))).decidedBy, 'agent');
    const other = await guard.check({ ...query, output: { sql: 'SELECT 1' } });
    assert.equal(model.requests.length, 4, 'the kept code abstained: a new plan and code');
    assert.equal(other.decidedBy, 'agent');
    memory.add({
      request: query.request,
      input: JSON.stringify(query.input),
      output: JSON.stringify(task('027-9', 'age').output),
      plan: 'p',
      code: 'c',
      label: 1,
      source: 'confirmed',
    });
    const kept = await guard.check(task('027-4', 'age'));
    assert.equal(kept.decidedBy, 'program');
    assert.equal(kept.label, 1, 'only the kept code that decides the demonstration as labelled is tried');
    assert.ok(kept.attempts[0]?.code.includes('CheckAccess'));
  });
  it('keeps programs and confirmed demonstrations in the memory file', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'guard-memory-')), 'memory.db');
    const firstMemory = DemonstrationMemory.open(file);
    const first = new GuardAgent({
      model: new ScriptedModel([plan, good]),
      budget: new Budget({ maxCalls: 5, maxTokens: 1e9 }),
      toolbox: createToolbox(),
      memory: firstMemory,
    });
    const decided = await first.check(task('027-1', 'age'));
    first.confirm(task('027-1', 'age'), decided);
    firstMemory.close();
    const memory = DemonstrationMemory.open(file);
    const model = new ScriptedModel([]);
    const later = new GuardAgent({
      model,
      budget: new Budget({ maxCalls: 5, maxTokens: 1e9 }),
      toolbox: createToolbox(),
      memory,
    });
    const result = await later.check(task('027-5', 'gender'));
    assert.deepEqual([result.decidedBy, result.label, model.requests.length, memory.size], ['program', 0, 0, 1]);
    memory.close();
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
