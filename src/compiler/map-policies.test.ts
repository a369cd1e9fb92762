import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Budget } from '../llm/budget.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';
import { checkDocument, correctReferences, mapPolicies } from './map-policies.ts';
import { shopDocument as document, mapScript, mapTools as tools } from './shop-fixture.ts';

describe('mapPolicies', () => {
  it('creates, reflects, splits, votes, corrects references, archives and writes examples', async () => {
    const workDir = await mkdtemp(join(tmpdir(), 'agentguard-map-'));
    const budget = new Budget({ maxCalls: 50, maxTokens: 1e9 });
    const result = await mapPolicies({ document, tools, model: new ScriptedModel(mapScript), budget, workDir });
    const spec = result.specs.get('refund_order');
    assert.deepEqual(
      spec?.policies.map((policy) => policy.id),
      [
        'refund_order.sunday_refunds',
        'refund_order.refund_limit',
        'refund_order.asked_amount',
        'refund_order.politeness',
      ],
    );
    assert.deepEqual(spec?.policies[2]?.references, ['Refund only what the user asked for.']);
    assert.equal(spec?.policies[2]?.compliance_examples.length, 3);
    assert.deepEqual(
      [...result.archived],
      [
        ['refund_order.sunday_refunds', 'none of its references occurs in the policy document'],
        ['refund_order.politeness', 'it concerns what the agent writes'],
      ],
    );
    assert.equal(budget.total().calls, mapScript.length);

    const resumed = await mapPolicies({
      document,
      tools,
      model: new ScriptedModel([]),
      budget: new Budget({ maxCalls: 50, maxTokens: 1e9 }),
      workDir,
    });
    assert.deepEqual(resumed, result, 'a rerun reuses every kept step');
  });
  it('rejects an empty, binary or oversized document with a clear error', () => {
    assert.throws(() => checkDocument('  \n', 'policy.md'), /`policy.md` is empty/);
    assert.throws(() => checkDocument('PK\u0000\u0003', 'policy.pdf'), /is not text/);
    assert.throws(() => checkDocument('x'.repeat(30), 'policy.md', 20), /30 characters, more than the 20/);
  });
  it('keeps verbatim references, corrects near misses and drops inventions', () => {
    assert.deepEqual(
      correctReferences(
        ['Refunds cannot exceed  the order total.', 'Refund only what the user asked fr.', 'Made up.'],
        document,
      ),
      ['Refunds cannot exceed the order total.', 'Refund only what the user asked for.'],
    );
  });
});
