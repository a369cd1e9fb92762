import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Conversation } from '../model/conversation.ts';
import type { GuardContext } from '../model/guard-context.ts';
import type { FixturePolicy } from '../pack/fixture-pack.ts';
import { writeFixturePack } from '../pack/fixture-pack.ts';
import { loadPack } from '../pack/load-pack.ts';
import { packTestFiles } from '../pack/test-case.ts';
import { packagePath } from '../package-root.ts';
import { guardContext, mockInvoker } from '../testing/index.ts';
import { executorFor } from './executor.ts';
import { feedbackFor } from './feedback.ts';
import { GuardRuntime, type RuntimeOptions } from './guard-runtime.ts';
import { GuardDeniedError, guardTool } from './guard-tool.ts';

const limit: FixturePolicy = {
  id: 'act.limit',
  body: 'return args.n > 3 ? { message: "n is " + args.n + ", at most 3" } : undefined;',
};
const call = (n: unknown, extra: Record<string, unknown> = {}) => ({
  id: 'c1',
  name: 'act',
  arguments: { n, ...extra },
});
const context = (): GuardContext =>
  guardContext({ invoker: mockInvoker({ look: () => ({ ok: true }), act: () => 'done' }) });

async function runtimeFor(
  policies: FixturePolicy[],
  options: RuntimeOptions = {},
  pack: { reviewed?: boolean; guardSource?: string } = {},
) {
  return new GuardRuntime([await loadPack(await writeFixturePack({ policies, ...pack }))], options);
}

describe('GuardRuntime decisions', () => {
  it('allows a compliant call and denies a violating one with the policy, its references and remedy', async () => {
    const runtime = await runtimeFor([limit]);
    assert.equal((await runtime.check(call(2), context())).decision, 'allow');
    const verdict = await runtime.check(call(9), context());
    assert.equal(verdict.decision, 'deny');
    assert.deepEqual(
      verdict.violations.map(({ policy, message, references, remedy }) => ({ policy, message, references, remedy })),
      [
        {
          policy: 'act.limit',
          message: 'n is 9, at most 3',
          references: ['Acts must be small.'],
          remedy: 'Act smaller.',
        },
      ],
    );
    assert.deepEqual(verdict.diagnostics.policies, ['act.limit']);
    const feedback = feedbackFor(verdict);
    assert.match(feedback, /blocked/);
    assert.match(feedback, /`act.limit`/);
    assert.match(feedback, /Policy: "Acts must be small."/);
    assert.match(feedback, /Instead: Act smaller./);
  });
  it('names one policy broken as "the policy below", two as "the policies below"', async () => {
    const odd: FixturePolicy = {
      id: 'act.even',
      body: 'return args.n % 2 === 1 ? { message: "n is odd" } : undefined;',
    };
    const runtime = await runtimeFor([limit, odd]);
    assert.match(feedbackFor(await runtime.check(call(4), context())), /breaks the policy below\./);
    const both = feedbackFor(await runtime.check(call(9), context()));
    assert.match(both, /breaks the policies below\./);
    assert.match(both, /`act.limit`[\s\S]*`act.even`/);
  });
  it('asks a person when the violated policy is set to ask', async () => {
    const runtime = await runtimeFor([{ ...limit, effect: 'ask' }]);
    const verdict = await runtime.check(call(9), context());
    assert.equal(verdict.decision, 'ask');
    assert.match(feedbackFor(verdict), /approval/);
  });
  it('asks a person, with the question, when the check found what decides the policy unsure', async () => {
    const unsure = { id: 'act.limit', body: 'return { message: "the user has not said", ask: "May I act?" };' };
    const verdict = await runtimeFor([unsure]).then((runtime) => runtime.check(call(1), context()));
    assert.equal(verdict.decision, 'ask');
    assert.equal(verdict.violations[0]?.question, 'May I act?');
    assert.match(feedbackFor(verdict), /Ask the user: May I act\?/);
  });
  it('denies, with the question and the remedy, an unsure fact of a policy whose spec says unsure denies', async () => {
    const unsure = { id: 'act.limit', body: 'return { message: "the user has not said", ask: "May I act?" };' };
    const spec = (setting: Record<string, unknown>) => ({
      'spec/act.json': JSON.stringify({
        tool: 'act',
        policies: [
          {
            id: 'act.limit',
            name: 'Policy act.limit',
            description: 'A test policy.',
            references: ['Acts must be small.'],
            compliance_examples: [],
            violation_examples: [],
            remedy: 'Act smaller.',
            ...setting,
          },
        ],
      }),
    });
    const decide = async (setting: Record<string, unknown>, policy: FixturePolicy = unsure) =>
      new GuardRuntime([await loadPack(await writeFixturePack({ policies: [policy], files: spec(setting) }))]).check(
        call(9),
        context(),
      );
    const denied = await decide({ unsure: 'deny' });
    assert.equal(denied.decision, 'deny');
    assert.deepEqual(
      denied.violations.map(({ effect, question, remedy }) => ({ effect, question, remedy })),
      [{ effect: 'deny', question: 'May I act?', remedy: 'Act smaller.' }],
    );
    const feedback = feedbackFor(denied);
    assert.match(feedback, /blocked/);
    assert.match(feedback, /Instead: Act smaller\./);
    assert.match(feedback, /Ask the user: May I act\?/);
    assert.equal((await decide({ unsure: 'ask' })).decision, 'ask');
    assert.equal((await decide({})).decision, 'ask');
    // A finding with no question takes the policy's effect: the setting is about unsure facts only.
    assert.equal((await decide({ unsure: 'deny' }, { ...limit, effect: 'ask' })).decision, 'ask');
  });
  it('reports in shadow mode without blocking', async () => {
    const runtime = await runtimeFor([limit], { shadow: true });
    const verdict = await runtime.check(call(9), context());
    assert.equal(verdict.decision, 'allow');
    assert.equal(verdict.evaluated, 'deny');
    assert.equal(verdict.violations.length, 1);
  });
  it('lets guards call read-only lookups, and only those', async () => {
    const runtime = await runtimeFor([
      {
        id: 'act.looks',
        body: "const seen = await context.invoker.invoke('look', {}); return seen.ok ? undefined : { message: 'no' };",
      },
      { id: 'act.writes', body: "await context.invoker.invoke('act', { n: 1 }); return undefined;" },
    ]);
    const verdict = await runtime.check(call(1), context());
    assert.deepEqual(
      verdict.violations.map((violation) => [violation.policy, violation.fault]),
      [['act.writes', 'threw']],
    );
    assert.match(verdict.violations[0]?.message ?? '', /not a read-only lookup/);
  });
  it('sees the conversation', async () => {
    const runtime = await runtimeFor([
      {
        id: 'act.asked',
        body: "return context.conversation.userTexts().includes('go') ? undefined : { message: 'not asked' };",
      },
    ]);
    const asked = { ...context(), conversation: new Conversation([{ role: 'user', text: 'go' }]) };
    assert.equal((await runtime.check(call(1), asked)).decision, 'allow');
    assert.equal((await runtime.check(call(1), context())).decision, 'deny');
  });
});

describe('GuardRuntime fails closed', () => {
  const faultOf = async (runtime: GuardRuntime, n: unknown = 1) => {
    const verdict = await runtime.check(call(n), context());
    assert.equal(verdict.decision, 'deny');
    return verdict;
  };
  it('denies when a guard throws, naming the policy and the error', async () => {
    const verdict = await faultOf(await runtimeFor([{ id: 'act.broken', body: "throw new Error('boom');" }]));
    assert.equal(verdict.violations[0]?.fault, 'threw');
    assert.match(verdict.violations[0]?.message ?? '', /while evaluating policy `act.broken`: the guard threw: boom/);
    assert.deepEqual(
      verdict.diagnostics.errors.map((error) => error.policy),
      ['act.broken'],
    );
  });
  it('denies when a guard never settles, after its time budget', async () => {
    const runtime = await runtimeFor([{ id: 'act.stuck', body: 'await new Promise(() => {});' }], { timeoutMs: 30 });
    const started = performance.now();
    const verdict = await faultOf(runtime);
    assert.equal(verdict.violations[0]?.fault, 'timeout');
    assert.ok(performance.now() - started < 1000);
  });
  it('denies when a guard returns something malformed', async () => {
    for (const body of [
      'return 42;',
      "return { msg: 'x' };",
      "return { message: '' };",
      "return { message: 'x', facts: [1] };",
    ]) {
      const verdict = await faultOf(await runtimeFor([{ id: 'act.odd', body }]));
      assert.equal(verdict.violations[0]?.fault, 'malformed', body);
    }
  });
  it('denies when an enforced policy has no check', async () => {
    const verdict = await faultOf(await runtimeFor([{ id: 'act.unwritten' }]));
    assert.equal(verdict.violations[0]?.fault, 'missing_guard');
    assert.match(verdict.violations[0]?.message ?? '', /exports no check for `act.unwritten`/);
  });
  it('denies when the guard module cannot be loaded', async () => {
    const verdict = await faultOf(await runtimeFor([limit], {}, { guardSource: 'export const checks = {' }));
    assert.equal(verdict.violations[0]?.fault, 'missing_guard');
    assert.match(verdict.violations[0]?.message ?? '', /cannot be loaded/);
  });
  it('denies a policy that is not enforced, unless told otherwise', async () => {
    const policies: FixturePolicy[] = [{ id: 'act.later', state: 'not_enforced' }];
    assert.equal((await faultOf(await runtimeFor(policies))).violations[0]?.fault, 'not_enforced');
    assert.equal(
      (await (await runtimeFor(policies, { notEnforced: 'allow' })).check(call(1), context())).decision,
      'allow',
    );
  });
  it('never evaluates archived policies', async () => {
    const runtime = await runtimeFor([{ id: 'act.info', state: 'archived', body: "throw new Error('never');" }]);
    assert.equal((await runtime.check(call(1), context())).decision, 'allow');
  });
  it('decides unknown tools by the configured default', async () => {
    const denying = await runtimeFor([limit]);
    const verdict = await denying.check({ id: 'x', name: 'launch', arguments: {} }, context());
    assert.equal(verdict.decision, 'deny');
    assert.equal(verdict.violations[0]?.fault, 'unknown_tool');
    const allowing = await runtimeFor([limit], { unknownTool: 'allow' });
    assert.equal((await allowing.check({ id: 'x', name: 'launch', arguments: {} }, context())).decision, 'allow');
  });
  it('decides arguments that do not match the schema by the configured default', async () => {
    const runtime = await runtimeFor([limit]);
    const unknown = await runtime.check(call(1, { force: true }), context());
    assert.equal(unknown.violations[0]?.fault, 'invalid_arguments');
    assert.match(unknown.violations[0]?.message ?? '', /unknown argument `force`/);
    const mistyped = await runtime.check(call('many'), context());
    assert.match(mistyped.violations[0]?.message ?? '', /arguments.n must be integer/);
    const lenient = await runtimeFor([limit], { invalidArguments: 'allow' });
    assert.equal((await lenient.check(call(1, { force: true }), context())).decision, 'allow');
    assert.equal((await lenient.check(call(9, { force: true }), context())).decision, 'deny');
  });
});

describe('synchronous checks and lookups answered at once', () => {
  /** Checks written as plain functions: the guard module the fixture pack would have, without `async`. */
  const syncSource = `export const checks = {
  'act.limit': (args) => (args.n > 3 ? { message: 'n is ' + args.n + ', at most 3' } : undefined),
  'act.looks': (args, context) => (context.invoker.invokeNow('look', {}).ok ? undefined : { message: 'no' }),
  'act.writes': (args, context) => (args.n === 5 ? context.invoker.invokeNow('act', { n: 1 }) : undefined),
  'act.odd': (args) => (args.n === 6 ? 42 : undefined),
  'act.later': async (args) => (args.n === 7 ? { message: 'seven, found later' } : undefined),
};`;
  const policies: FixturePolicy[] = ['act.limit', 'act.looks', 'act.writes', 'act.odd', 'act.later'].map((id) => ({
    id,
    body: 'return undefined;',
  }));
  const answering = (): GuardContext => {
    const invoker = mockInvoker({ look: () => ({ ok: true }), act: () => 'done' });
    return guardContext({
      invoker: { invoke: invoker.invoke, invokeNow: (tool: string) => (tool === 'look' ? { ok: true } : 'done') },
    });
  };
  const decide = async (n: number) => {
    const runtime = await runtimeFor(policies, {}, { guardSource: syncSource });
    return (await runtime.check(call(n), answering())).violations.map((violation) => [
      violation.policy,
      violation.fault ?? violation.message,
    ]);
  };
  it('decides from checks that answer at once, and from one that answers later beside them', async () => {
    assert.deepEqual(await decide(1), []);
    assert.deepEqual(await decide(4), [['act.limit', 'n is 4, at most 3']]);
    assert.deepEqual(await decide(7), [
      ['act.limit', 'n is 7, at most 3'],
      ['act.later', 'seven, found later'],
    ]);
  });
  it('evaluates checks that all answer at once without a promise', async () => {
    const pack = await loadPack(await writeFixturePack({ policies, guardSource: syncSource }));
    const tool = pack.tools.get('act');
    assert.ok(tool !== undefined);
    const executor = executorFor(pack);
    const now = executor.evaluate(tool, ['act.limit', 'act.looks'], call(9), answering(), 100);
    assert.ok(Array.isArray(now));
    assert.deepEqual(
      now.map((outcome) => outcome.policy),
      ['act.limit', 'act.looks'],
    );
    assert.ok(executor.evaluate(tool, ['act.limit', 'act.later'], call(9), answering(), 100) instanceof Promise);
  });
  it('fails closed the same way: a lookup of a tool that changes state throws, a malformed answer denies', async () => {
    assert.deepEqual(await decide(5), [
      ['act.limit', 'n is 5, at most 3'],
      ['act.writes', 'threw'],
    ]);
    assert.deepEqual(await decide(6), [
      ['act.limit', 'n is 6, at most 3'],
      ['act.odd', 'malformed'],
    ]);
  });
  it('denies every synchronous answer when the checks together run past the budget, and only then', async () => {
    const slow = `export const checks = {
  'act.limit': (args) => (args.n > 3 ? { message: 'n is ' + args.n + ', at most 3' } : undefined),
  'act.slow': (args) => { const end = Date.now() + (args.n === 2 ? 40 : 0); while (Date.now() < end) {} return undefined; },
};`;
    const runtime = await runtimeFor(
      [
        { id: 'act.limit', body: 'return undefined;' },
        { id: 'act.slow', body: 'return undefined;' },
      ],
      { timeoutMs: 20 },
      { guardSource: slow },
    );
    assert.equal((await runtime.check(call(1), context())).decision, 'allow');
    const verdict = await runtime.check(call(2), context());
    assert.equal(verdict.decision, 'deny');
    assert.deepEqual(
      verdict.violations.map((violation) => [violation.policy, violation.fault]),
      [
        ['act.limit', 'timeout'],
        ['act.slow', 'timeout'],
      ],
    );
    assert.match(verdict.violations[1]?.message ?? '', /took longer than its 20 ms budget: the synchronous checks/);
  });
  it('offers no answer at once when the invoker has none', async () => {
    const runtime = await runtimeFor(policies, {}, { guardSource: syncSource });
    const verdict = await runtime.check(call(1), context());
    assert.deepEqual(
      verdict.violations.map((violation) => [violation.policy, violation.fault]),
      [['act.looks', 'threw']],
    );
  });
});

describe('unreviewed guard code runs in a worker', () => {
  it('decides like the in-process runtime, lookups included', async () => {
    const runtime = await runtimeFor(
      [
        limit,
        {
          id: 'act.looks',
          body: "const seen = await context.invoker.invoke('look', {}); return seen.ok ? undefined : { message: 'no' };",
        },
      ],
      {},
      { reviewed: false },
    );
    try {
      assert.equal((await runtime.check(call(2), context())).decision, 'allow');
      const verdict = await runtime.check(call(9), context());
      assert.deepEqual(
        verdict.violations.map((violation) => violation.policy),
        ['act.limit'],
      );
    } finally {
      await runtime.close();
    }
  });
  it('stops a synchronous endless loop, denies, and recovers for the next call', async () => {
    const runtime = await runtimeFor(
      [{ id: 'act.spin', body: 'if (args.n > 3) { while (true) {} } return undefined;' }],
      { timeoutMs: 200 },
      { reviewed: false },
    );
    try {
      const verdict = await runtime.check(call(9), context());
      assert.equal(verdict.decision, 'deny');
      assert.equal(verdict.violations[0]?.fault, 'timeout');
      assert.equal((await runtime.check(call(1), context())).decision, 'allow');
    } finally {
      await runtime.close();
    }
  });
  it('lets a process that decides a call and never closes the runtime exit by itself', async () => {
    const dir = await writeFixturePack({
      policies: [
        limit,
        {
          id: 'act.looks',
          body: "return (await context.invoker.invoke('look', {})).ok ? undefined : { message: 'no' };",
        },
      ],
      reviewed: false,
    });
    const entry = (path: string) => JSON.stringify(pathToFileURL(packagePath(path)).href);
    const script = `
      import { GuardRuntime, loadPack } from ${entry('src/index.ts')};
      import { guardContext, mockInvoker } from ${entry('src/testing/index.ts')};
      const runtime = new GuardRuntime([await loadPack(process.argv[2])]);
      const look = () => new Promise((resolve) => setTimeout(() => resolve({ ok: true }), 50));
      const verdict = await runtime.check(
        { id: 'c1', name: 'act', arguments: { n: 2 } },
        guardContext({ invoker: mockInvoker({ look }) }),
      );
      console.log(verdict.decision);`;
    await writeFile(join(dir, 'main.mjs'), script);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=agentguard-source', join(dir, 'main.mjs'), dir],
      { timeout: 20_000 },
    );
    assert.equal(stdout.trim(), 'allow');
  });
});

describe('warmUp', () => {
  it('decides every shipped test case of a reviewed pack, audits none, and changes no later verdict', async () => {
    const pack = await loadPack(packagePath('packs/tau-airline'));
    const cases = (await packTestFiles(pack.dir)).reduce((sum, file) => sum + file.cases.length, 0);
    const audited: unknown[] = [];
    const runtime = new GuardRuntime([pack], { audit: { append: (record) => audited.push(record) } });
    const unconfirmed = {
      id: 'c1',
      name: 'cancel_reservation',
      arguments: { reservation_id: 'ZFA04Y' },
    };
    const context = (): GuardContext => guardContext({ invoker: mockInvoker({}) });
    const before = await new GuardRuntime([pack]).check(unconfirmed, context());
    const report = await runtime.warmUp();
    assert.ok(cases > 50);
    assert.equal(report.cases, cases);
    assert.equal(audited.length, 0);
    const after = await runtime.check(unconfirmed, context());
    assert.deepEqual(
      { ...after, diagnostics: { ...after.diagnostics, durationUs: 0 } },
      { ...before, diagnostics: { ...before.diagnostics, durationUs: 0 } },
    );
    assert.equal(audited.length, 1);
  });
  it('leaves out unreviewed packs, whose code runs in a worker', async () => {
    const runtime = await runtimeFor([limit], {}, { reviewed: false });
    try {
      assert.equal((await runtime.warmUp()).cases, 0);
    } finally {
      await runtime.close();
    }
  });
});

describe('guardTool', () => {
  it('runs the tool when allowed and returns the feedback when denied', async () => {
    const runtime = await runtimeFor([limit]);
    let ran = 0;
    const act = guardTool(runtime, 'act', async (args: { n: number }) => `acted ${args.n}${String(++ran)}`, {
      context,
    });
    assert.equal(await act({ n: 1 }), 'acted 11');
    assert.match(String(await act({ n: 9 })), /blocked/);
    assert.equal(ran, 1);
  });
  it('throws GuardDeniedError when set to throw', async () => {
    const runtime = await runtimeFor([limit]);
    const act = guardTool(runtime, 'act', async (_args: { n: number }) => 'acted', { context, onDeny: 'throw' });
    await assert.rejects(
      act({ n: 9 }),
      (error: unknown) => error instanceof GuardDeniedError && error.verdict.decision === 'deny',
    );
  });
});
