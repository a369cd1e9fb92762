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
    const model = new ScriptedModel(mapScript);
    const result = await mapPolicies({ document, tools, model, budget, workDir });
    const spec = result.specs.get('refund_order');
    assert.deepEqual(
      spec?.policies.map((policy) => [policy.id, policy.archived]),
      [
        ['refund_order.refund_limit', undefined],
        ['refund_order.asked_amount', undefined],
        ['refund_order.politeness', 'it concerns what the agent writes'],
        ['refund_order.sunday_refunds', 'none of its references occurs in the policy document'],
      ],
    );
    assert.deepEqual(spec?.policies[1]?.references, ['Refund only what the user asked for.']);
    assert.equal(spec?.policies[1]?.compliance_examples.length, 3);
    assert.deepEqual(
      [...result.archived],
      [
        ['refund_order.sunday_refunds', 'none of its references occurs in the policy document'],
        ['refund_order.politeness', 'it concerns what the agent writes'],
      ],
    );
    assert.deepEqual(
      model.requests.filter((request) => request.step.startsWith('map.create_examples')).length,
      2,
      "one call for the tool's examples, one more for the policies with too few",
    );
    assert.equal(budget.total().calls, mapScript.length);
    assert.deepEqual(new Set(model.requests.map((request) => request.subject)), new Set(['refund_order']));

    const resumed = await mapPolicies({
      document,
      tools,
      model: new ScriptedModel([]),
      budget: new Budget({ maxCalls: 50, maxTokens: 1e9 }),
      workDir,
    });
    assert.deepEqual(resumed, result, 'a rerun reuses every kept step');
  });
  it('asks no split, relevance or enforceability question about a tool no policy speaks of', async () => {
    const model = new ScriptedModel([JSON.stringify({ policies: [] }), JSON.stringify({ policies: [] }), ...mapScript]);
    const budget = new Budget({ maxCalls: 50, maxTokens: 1e9 });
    const result = await mapPolicies({
      document,
      tools: [
        { name: 'add_note', description: 'Adds a note.', parameters: { type: 'object' }, readOnly: false },
        ...tools,
      ],
      model,
      budget,
      workDir: await mkdtemp(join(tmpdir(), 'agentguard-map-')),
    });
    assert.deepEqual(result.specs.get('add_note'), { tool: 'add_note', policies: [] });
    const forNote = model.requests.slice(0, 2).map((request) => request.step);
    assert.deepEqual(
      forNote.map((step) => step.split(/[.@]/)[1]),
      ['create_policies', 'add_policies'],
    );
    assert.equal(budget.total().calls, mapScript.length + 2);
    assert.equal(result.specs.get('refund_order')?.policies.length, 4);
  });
  it('gives every step the document, tells lookups from guarded tools, and states the rules answers must follow', async () => {
    const model = new ScriptedModel(mapScript);
    const workDir = await mkdtemp(join(tmpdir(), 'agentguard-map-'));
    await mapPolicies({ document, tools, model, budget: new Budget({ maxCalls: 50, maxTokens: 1e9 }), workDir });
    const prompt = (step: string) =>
      model.requests.find((request) => request.step.startsWith(step))?.messages[0]?.content ?? '';
    for (const request of model.requests) {
      assert.ok(request.messages[0]?.content.includes(document), `${request.step} shows the policy document`);
      assert.match(request.system, /lead-in line of a list .* is a sentence of its own/);
      assert.match(request.system, /a list item or a line without one is a sentence of its own/);
    }
    for (const step of ['map.create_policies', 'map.add_policies', 'map.review_enforceability']) {
      assert.match(prompt(step), /Tools that change state \(each gets a guard[^\n]*: refund_order\./, step);
      assert.match(prompt(step), /Read-only lookups \(they change nothing[^\n]*: get_order\./, step);
    }
    assert.match(prompt('map.split_merge'), /Do not split alternatives/);
    assert.match(prompt('map.create_examples'), /at least 3 compliance examples and at least 3 violation examples/);
  });
  it('maps a read-only tool named in `guardReadOnly` as a guarded tool, and rejects a name that is no read-only tool', async () => {
    const workDir = await mkdtemp(join(tmpdir(), 'agentguard-map-'));
    const budget = new Budget({ maxCalls: 50, maxTokens: 1e9 });
    const model = new ScriptedModel([]);
    await assert.rejects(
      mapPolicies({ document, tools, model, budget, workDir, guardReadOnly: ['refund_order', 'nothing'] }),
      /not read-only tools of the tool specs: refund_order, nothing/,
    );
    const readsOnly = tools.filter((tool) => tool.readOnly);
    await assert.rejects(
      mapPolicies({ document, tools: readsOnly, model, budget, workDir, guardReadOnly: ['get_order'] }),
    );
    assert.match(model.requests[0]?.messages[0]?.content ?? '', /`get_order` only reads, yet it gets a guard too/);
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
