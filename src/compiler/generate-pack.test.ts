import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Budget } from '../llm/budget.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';
import { loadPack } from '../pack/load-pack.ts';
import type { ToolPolicySpec } from '../pack/policy-spec.ts';
import { runCases } from '../pack/run-cases.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { IsolateSandbox } from '../sandbox/isolate-sandbox.ts';
import { guardContext, mockInvoker } from '../testing/index.ts';
import { generatePack } from './generate-pack.ts';
import { GuardTypeChecker } from './type-checker.ts';

/** A small shop domain: one lookup and one refund tool with two policies. */
export const shopTools: ToolSpec[] = [
  {
    name: 'get_order',
    description: 'Get an order.',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    readOnly: true,
  },
  {
    name: 'refund_order',
    description: 'Refund part of an order.',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' }, amount: { type: 'number' } },
      required: ['order_id', 'amount'],
    },
    readOnly: false,
  },
];
const policy = (id: string, description: string) => ({
  id,
  name: id,
  description,
  references: [description],
  compliance_examples: [`${id} compliant`],
  violation_examples: [`${id} violating`],
});
export const shopSpecs = new Map<string, ToolPolicySpec>([
  [
    'refund_order',
    {
      tool: 'refund_order',
      policies: [
        policy('refund.limit', 'Refunds cannot exceed the order total.'),
        policy('refund.asked', 'Refund only what the user asked for.'),
      ],
    },
  ],
]);
const lookup = { tool: 'get_order', arguments: { order_id: 'A1' }, result: { total: 50 } };
const testCase = (amount: number) =>
  JSON.stringify({ arguments: { order_id: 'A1', amount }, conversation: [], lookups: [lookup] });
const header =
  "import type { PolicyCheck } from 'agentguard';\nimport type { RefundOrderArgs } from '../../types.ts';\n";
const limitCode = (body: string) =>
  JSON.stringify({
    code: `${header}\nexport const check: PolicyCheck<RefundOrderArgs> = async (args, context) => {\n  const order = (await context.invoker.invoke('get_order', { order_id: args.order_id })) as { total: number };\n  ${body}\n};\n`,
  });
const never = JSON.stringify({
  code: `${header}\nexport const check: PolicyCheck<RefundOrderArgs> = () => undefined;\n`,
});

/** The scripted answers of a shop build that goes through every repair path. */
export const shopScript = [
  // refund.limit: lookups; a compliance case (invalid JSON first); a violation case; code with a type error,
  // then a failing test, then green.
  JSON.stringify({ lookups: ['get_order'], reason: 'the total is on the order' }),
  'this is not JSON',
  testCase(10),
  testCase(60),
  limitCode("return args.amout > order.total ? { message: 'too much' } : undefined;"),
  limitCode("return args.amount < order.total ? { message: 'too much' } : undefined;"),
  limitCode(
    "return args.amount > order.total ? { message: 'refund ' + args.amount + ' is over the total ' + order.total } : undefined;",
  ),
  // refund.asked: never goes green.
  JSON.stringify({ lookups: [], reason: 'the conversation is enough' }),
  testCase(10),
  testCase(20),
  never,
  never,
  never,
  never,
];

export const buildShop = (
  out: string,
  model: ScriptedModel | import('../llm/language-model.ts').LanguageModel,
  budget = new Budget({ maxCalls: 100, maxTokens: 1e9 }),
) =>
  generatePack({
    out,
    domain: 'shop',
    description: 'A shop.',
    policyDocument: 'Refunds cannot exceed the order total. Refund only what the user asked for.',
    tools: shopTools,
    specs: shopSpecs,
    model,
    budget,
    sandbox: new IsolateSandbox(),
    typeChecker: new GuardTypeChecker(),
  });

describe('generatePack', () => {
  it('generates a pack test-first through every repair path, and records what never went green', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-shop-'));
    const model = new ScriptedModel(shopScript);
    const budget = new Budget({ maxCalls: 100, maxTokens: 1e9 });
    const report = await buildShop(out, model, budget);
    assert.deepEqual(
      report.map(({ policy, state, origin, repairs }) => ({ policy, state, origin, repairs })),
      [
        { policy: 'refund.limit', state: 'enforced', origin: 'generated', repairs: 2 },
        { policy: 'refund.asked', state: 'not_enforced', origin: 'none', repairs: 3 },
      ],
    );
    assert.match(
      report[1]?.reason ?? '',
      /no implementation went green after 3 repairs; last failure: violation example/,
    );
    assert.equal(budget.steps.get('generate.test_case@v1')?.retries, 1);
    assert.match(model.requests[5]?.messages[0]?.content ?? '', /Property 'amout' does not exist/);
    assert.match(model.requests[6]?.messages[0]?.content ?? '', /expected compliance, the check found: too much/);

    const pack = await loadPack(out);
    assert.deepEqual(
      pack.manifest.guards.refund_order?.policies.map((entry) => entry.state),
      ['enforced', 'not_enforced'],
    );
    const cases = JSON.parse(await readFile(join(out, 'tests/refund_order.cases.json'), 'utf8'));
    assert.deepEqual(
      (await runCases(pack, cases)).map((result) => result.outcome),
      ['pass', 'pass'],
    );
    const runtime = new GuardRuntime([pack], { notEnforced: 'allow' });
    try {
      const context = guardContext({ invoker: mockInvoker({ get_order: () => ({ total: 50 }) }) });
      const verdict = await runtime.check(
        { id: 'c', name: 'refund_order', arguments: { order_id: 'A1', amount: 80 } },
        context,
      );
      assert.deepEqual(
        verdict.violations.map((violation) => violation.message),
        ['refund 80 is over the total 50'],
      );
    } finally {
      await runtime.close();
    }
  });
  it('regenerates only what changed, and keeps guard files edited by hand', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-shop-'));
    await buildShop(out, new ScriptedModel(shopScript));
    const again = await buildShop(out, new ScriptedModel(shopScript.slice(7)));
    assert.deepEqual(
      again.map((entry) => entry.origin),
      ['unchanged', 'none'],
    );
    const file = join(out, 'guards/refund_order/limit.ts');
    await writeFile(file, `${await readFile(file, 'utf8')}// reviewed\n`);
    const kept = await buildShop(out, new ScriptedModel(shopScript.slice(7)));
    assert.equal(kept[0]?.origin, 'kept');
    assert.match(await readFile(file, 'utf8'), /\/\/ reviewed/);
  });
});
