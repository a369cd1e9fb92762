import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Budget } from '../llm/budget.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';
import { compileGuardProgram } from './compile-program.ts';
import { GuardAgent, type GuardQuery } from './guard-agent.ts';
import { DemonstrationMemory, taskText } from './memory.ts';
import { loadProgramPack } from './program-pack.ts';
import { createToolbox } from './toolbox/toolbox.ts';

/** A rule request in the style of Mind2Web-SC: a web task and its user's profile against rules over action kinds. */
const teen = { age: 16, verified_email: true };
const rules: GuardQuery & { input: { task: string; user: Record<string, unknown> } } = {
  request: 'Users under 18 may not buy products. Users without a verified email may not post on forums.',
  spec: "A web agent carries out a user's task on shopping sites and forums.",
  input: { task: 'Buy the cheapest toothpaste', user: teen },
  output: { sites: ['shopping'] },
  functions: ['CheckRule', 'Classify'],
};
const plan = JSON.stringify({ plan: ['Find the actions the task involves.', 'Check the rules of those actions.'] });
const code = (body: string) => JSON.stringify({ code: `function guard(input, output) {\n${body}\n}` });
const classifying =
  code(`  const actions = Classify(input.task, 'Which actions does the task involve?', ['purchase', 'post']);
  if (actions.length === 0) return { label: 0, reasons: [{ kind: 'unconcerned', why: 'no rule concerns the task' }] };
  const all = {
    purchase: [{ info: 'age', operator: '>=', value: 18, violation: 'users under 18 may not buy products' }],
    post: [{ info: 'verified_email', operator: '==', value: true, violation: 'posting needs a verified email' }],
  };
  const decision = CheckRule(Object.fromEntries(actions.map((action) => [action, all[action]])), input.user);
  if (!decision.denied) return { label: 0, reasons: [] };
  return { label: 1, reasons: decision.violations.map((item) => ({ kind: 'rule', rule: item.violation, user: input.user })) };`);
const agent = (answers: string[], memory = DemonstrationMemory.open(':memory:')) => {
  const model = new ScriptedModel(answers);
  const guard = new GuardAgent({
    model,
    budget: new Budget({ maxCalls: 20, maxTokens: 1e9 }),
    toolbox: createToolbox(),
    memory,
  });
  return { model, memory, guard };
};
const contentOf = (model: ScriptedModel, index: number) => model.requests[index]?.messages[0]?.content ?? '';
const sqlWords = /\bSQL|query|dialect|tables|columns|SqlAccess|SqliteReads|GrantsOf|CheckAccess|undetermined read/;

describe('a rule request', () => {
  it('is shown only its functions and no SQL rule, and grants a task no rule concerns with a typed reason', async () => {
    const { guard, model } = agent([
      plan,
      code(
        `  return { label: 0, reasons: [{ kind: 'unconcerned', why: 'the task involves no action the rules concern' }] };`,
      ),
    ]);
    const result = await guard.check({
      ...rules,
      input: { task: 'Show the weather', user: {} },
      functions: ['CheckRule'],
    });
    assert.equal(result.label, 0);
    assert.deepEqual(result.reasons, [{ kind: 'unconcerned', why: 'the task involves no action the rules concern' }]);
    for (const index of [0, 1]) {
      assert.doesNotMatch(contentOf(model, index), sqlWords);
      assert.match(contentOf(model, index), /CheckRule\(/);
    }
    assert.match(contentOf(model, 1), /kind: 'unconcerned'; why: string/);
    assert.match(contentOf(model, 1), /write your judgement as a constant and make the code abstain unless the text/);
  });
  it('keeps the SQL rules for a request whose toolbox reads queries', async () => {
    const { guard, model } = agent([
      plan,
      code('  return { label: 1, reasons: [{ kind: "undetermined", why: "x" }] };'),
    ]);
    await guard.check({ ...rules, functions: ['SqliteReads', 'CheckAccess'] });
    assert.match(contentOf(model, 0), /a task whose output holds no query .* is denied/);
    assert.match(contentOf(model, 1), /names the dialect it reads/);
    assert.doesNotMatch(contentOf(model, 1), /CheckRule\(/);
  });
  it('sends a bare grant back to be fixed, with a debug request that holds the request, the task, the plan and the code', async () => {
    const bare = code('  return { label: 0, reasons: [] };');
    const { guard, model } = agent([plan, bare, classifying, JSON.stringify({ labels: ['purchase'] })]);
    const result = await guard.check(rules);
    assert.equal(result.attempts.length, 2);
    assert.match(result.attempts[0]?.error ?? '', /needs an `unconcerned` reason/);
    const debug = contentOf(model, 2);
    assert.equal(model.requests[2]?.step, 'guard.debug@v3');
    assert.match(debug, /^Guard request:\nUsers under 18/);
    assert.match(debug, /<untrusted-agent-input>\n.*Buy the cheapest toothpaste/);
    assert.match(debug, /Plan:\n1\. Find the actions/);
    assert.match(
      debug,
      /The code:\n```ts\nfunction guard\(input, output\) \{\n {2}return \{ label: 0, reasons: \[\] \};/,
    );
    assert.doesNotMatch(debug, sqlWords);
    assert.equal(result.label, 1);
  });
  it('asks Classify once per new task text, and never for a text seen before, across runs with the memory file', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'agentguard-classify-')), 'memory.db');
    const first = agent(
      [plan, classifying, JSON.stringify({ labels: ['purchase'] }), JSON.stringify({ labels: ['post'] })],
      DemonstrationMemory.open(file),
    );
    const bought = await first.guard.check(rules);
    assert.deepEqual(
      first.model.requests.map((request) => request.step),
      ['guard.plan@v3', 'guard.code@v3', 'guard.classify@v1'],
    );
    assert.match(contentOf(first.model, 2), /<untrusted-text>\n"Buy the cheapest toothpaste"/);
    assert.deepEqual([bought.label, bought.decidedBy], [1, 'agent']);
    const posted = await first.guard.check({
      ...rules,
      input: { task: 'Post a review of a book', user: { age: 16, verified_email: true } },
    });
    assert.deepEqual([posted.label, posted.decidedBy, first.model.requests.length], [0, 'program', 4]);
    first.memory.close();
    const again = agent([], DemonstrationMemory.open(file));
    const adult = await again.guard.check({ ...rules, input: { ...rules.input, user: { age: 30 } } });
    assert.deepEqual([adult.label, adult.decidedBy, again.model.requests.length], [0, 'program', 0]);
    again.memory.close();
  });
  it('never takes the decision of a run that met an unanswered classification, even when the code caught it', async () => {
    const catching = code(`  let actions;
  try { actions = Classify(input.task, 'Which actions does the task involve?', ['purchase', 'post']); }
  catch { return { label: 0, reasons: [{ kind: 'unconcerned', why: 'could not classify' }] }; }
  const decision = CheckRule(actions.includes('purchase') ? { purchase: { info: 'age', operator: '>=', value: 18, violation: 'under 18' } } : {}, input.user);
  return decision.denied ? { label: 1, reasons: [{ kind: 'rule', rule: 'under 18', user: input.user }] } : { label: 0, reasons: [] };`);
    const { guard } = agent([plan, catching, JSON.stringify({ labels: ['purchase'] })]);
    const result = await guard.check(rules);
    assert.deepEqual([result.label, result.reasons], [1, [{ kind: 'rule', rule: 'under 18', user: teen }]]);
  });
  it('asks again when the model answers a label that is not listed', async () => {
    const { guard, model } = agent([
      plan,
      classifying,
      JSON.stringify({ labels: ['buy'] }),
      JSON.stringify({ labels: ['purchase'] }),
    ]);
    const result = await guard.check(rules);
    assert.equal(result.label, 1);
    assert.match(model.requests[3]?.messages.at(-1)?.content ?? '', /`buy` is not one of the labels/);
  });
  it('compiles a program over Classify: one call per new task text when it decides, none for a text seen before', async () => {
    const memory = DemonstrationMemory.open(':memory:');
    const demonstration = (task: string, label: 0 | 1) => ({
      request: rules.request,
      input: taskText({ task, user: teen }),
      output: taskText(rules.output),
      plan: '',
      code: '',
      label,
      source: 'user' as const,
    });
    memory.add(demonstration('Buy a lamp', 1), demonstration('Show the weather', 0));
    const program = JSON.parse(classifying.replace('function guard(', 'function program(')) as { code: string };
    const answers = (labels: string[]) => JSON.stringify({ labels });
    const model = new ScriptedModel([JSON.stringify(program), answers(['purchase']), answers([]), answers(['post'])]);
    const out = join(await mkdtemp(join(tmpdir(), 'agentguard-classify-compiled-')), 'pack');
    const budget = new Budget({ maxCalls: 20, maxTokens: 1e9 });
    const toolbox = createToolbox();
    const options = { request: rules.request, spec: rules.spec, memory, model, budget, toolbox, out };
    const compiled = await compileGuardProgram({ ...options, functions: ['CheckRule', 'Classify'] });
    assert.deepEqual([compiled.state, compiled.passed, model.requests.length], ['green', 2, 3]);
    assert.match(contentOf(model, 0), /Classify\(text: string/);
    const guard = new GuardAgent({ model, budget, toolbox, memory, compiled: await loadProgramPack(out) });
    const seen = await guard.check({ ...rules, input: { task: 'Buy a lamp', user: { age: 40 } } });
    assert.deepEqual([seen.decidedBy, seen.label, model.requests.length], ['compiled', 0, 3]);
    const posted = await guard.check({ ...rules, input: { task: 'Post a poem', user: { verified_email: false } } });
    assert.deepEqual(
      [posted.decidedBy, posted.label, model.requests.at(-1)?.step],
      ['compiled', 1, 'guard.classify@v1'],
    );
    assert.equal(model.requests.length, 4);
  });
});
