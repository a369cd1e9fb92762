import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Budget } from '../llm/budget.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';
import { loadPack } from '../pack/load-pack.ts';
import { runCases } from '../pack/run-cases.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { guardContext, mockInvoker } from '../testing/index.ts';
import { buildShop, shopScript } from './shop-fixture.ts';

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
    assert.equal(budget.steps.get('generate.test_cases@v3')?.retries, 1);
    const about = new Set(model.requests.map((request) => `${request.step.split('@')[0]} ${request.subject}`));
    assert.deepEqual(
      [...about].slice(0, 4),
      ['lookups', 'test_cases', 'implementation', 'repair'].map(
        (step) => `generate.${step} guards/refund_order/limit.ts`,
      ),
      'each request names the policy module it is about',
    );
    assert.match(model.requests[4]?.messages[0]?.content ?? '', /Property 'amout' does not exist/);
    assert.match(model.requests[5]?.messages[0]?.content ?? '', /expected compliance, the check found: too much/);

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
    const again = await buildShop(out, new ScriptedModel(shopScript.slice(6)));
    assert.deepEqual(
      again.map((entry) => entry.origin),
      ['unchanged', 'none'],
    );
    const file = join(out, 'guards/refund_order/limit.ts');
    await writeFile(file, `${await readFile(file, 'utf8')}// reviewed\n`);
    const kept = await buildShop(out, new ScriptedModel(shopScript.slice(6)));
    assert.equal(kept[0]?.origin, 'kept');
    assert.match(await readFile(file, 'utf8'), /\/\/ reviewed/);
  });
});
