import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ToolPolicySpec } from '../pack/policy-spec.ts';
import { readSpecDirectory } from '../pack/spec-directory.ts';
import { evaluateSpec, fuzzyRandParts, sentencesOf } from './spec-metrics.ts';

const policy = (id: string, ...references: string[]) => ({
  id: `t.${id}`,
  name: id,
  description: id,
  references,
  compliance_examples: [],
  violation_examples: [],
});
const spec = (...policies: ReturnType<typeof policy>[]): ToolPolicySpec => ({ tool: 't', policies });
const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);

describe('evaluateSpec', () => {
  it('matches hand-computed values', () => {
    const gold = spec(policy('a', 'First rule. Second rule.'), policy('b', 'Third rule.'));
    const predicted = spec(
      policy('x', 'First rule.'),
      policy('y', 'Second rule. Third rule.'),
      policy('z', 'Fourth rule.'),
    );
    const result = evaluateSpec(new Map([['t', predicted]]), new Map([['t', gold]]));
    // 4 predicted sentences, 3 gold, 3 matched: P = 3/4, R = 1, F1 = 6/7.
    close(result.reference.precision, 0.75);
    close(result.reference.recall, 1);
    close(result.reference.f1, 6 / 7);
    // Pairs of the 3 common sentences: (1,2) together in gold only, (2,3) in the prediction only, (1,3) in neither.
    close(result.grouping.fuzzy_rand_index, 1 / 3);
    assert.equal(result.per_tool.t?.grouping.common, 3);
  });
  it('spreads a sentence cited by several policies over them', () => {
    const predicted = new Map([
      ['s1', new Set(['a', 'b'])],
      ['s2', new Set(['a'])],
    ]);
    const gold = new Map([
      ['s1', new Set(['g'])],
      ['s2', new Set(['g'])],
    ]);
    // Predicted: 1 - TV((1/2, 1/2), (1, 0)) = 1/2; gold: 1. One pair, disagreement 1/2.
    assert.deepEqual(fuzzyRandParts(predicted, gold), { disagreement: 0.5, pairs: 1, common: 2 });
  });
  it('splits sentences and ignores case, spacing and closing punctuation', () => {
    assert.deepEqual(sentencesOf('- The agent must ask.  Then   it acts!'), ['the agent must ask', 'then it acts']);
  });

  const goldDir = fileURLToPath(new URL('../../data/toolguard-airline-spec/', import.meta.url));
  it("scores ToolGuard's gold spec against itself as 1 on every figure", async () => {
    const gold = await readSpecDirectory(goldDir);
    const result = evaluateSpec(gold, gold);
    assert.deepEqual(
      [result.reference.precision, result.reference.recall, result.reference.f1, result.grouping.fuzzy_rand_index],
      [1, 1, 1, 1],
    );
    for (const scores of Object.values(result.per_tool)) assert.equal(scores.reference.f1, 1);
  });
  it("lowers a tool's recall when its references are removed, and only that tool's", async () => {
    const gold = await readSpecDirectory(goldDir);
    const cancel = gold.get('cancel_reservation') as ToolPolicySpec;
    const predicted = new Map(gold);
    predicted.set('cancel_reservation', {
      ...cancel,
      policies: cancel.policies.map((item, index) => (index === 0 ? { ...item, references: [] } : item)),
    });
    const result = evaluateSpec(predicted, gold);
    assert.ok((result.per_tool.cancel_reservation?.reference.recall ?? 1) < 1);
    assert.equal(result.per_tool.book_reservation?.reference.recall, 1);
    assert.ok(result.reference.recall < 1);
  });
});

describe('evaluateSpec on archived policies', () => {
  it('scores neither the references nor the grouping of an archived policy', () => {
    const gold = spec(policy('a', 'First rule.'));
    const archived: ToolPolicySpec['policies'][number] = { ...policy('y', 'Second rule.'), archived: 'after the call' };
    const predicted: ToolPolicySpec = { tool: 't', policies: [policy('x', 'First rule.'), archived] };
    const result = evaluateSpec(new Map([['t', predicted]]), new Map([['t', gold]]));
    assert.deepEqual([result.reference.precision, result.reference.recall], [1, 1]);
  });
});
