import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCompilerEvaluation } from '../../scripts/eval-compiler.ts';
import type { CompilerEvaluation } from './compiler-evaluation.ts';

const recording = fileURLToPath(new URL('../../data/compiler-eval/cancel.recording.json', import.meta.url));

describe('npm run eval:compiler -- --replay <recording>', () => {
  it('reproduces a full mapper and generator evaluation offline: mapping scores, tests, replay agreement', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-eval-compiler-'));
    const json = join(out, 'evaluation.json');
    const report = await runCompilerEvaluation([
      '--replay',
      recording,
      '--map',
      'cancel_reservation',
      '--generate',
      'cancel_reservation',
      '--out',
      out,
      '--json',
      json,
    ]);
    const evaluation = JSON.parse(await readFile(json, 'utf8')) as CompilerEvaluation;
    const cancel = evaluation.mapping.per_tool.cancel_reservation;
    assert.deepEqual([cancel?.reference.matched, cancel?.reference.predicted, cancel?.reference.gold], [8, 9, 9]);
    assert.deepEqual(
      evaluation.policies.map((policy) => policy.state),
      ['enforced', 'enforced', 'enforced', 'enforced', 'enforced'],
    );
    assert.deepEqual(evaluation.tests, { cases: 34, passed: 34 });
    assert.deepEqual(evaluation.replay.tools.cancel_reservation, {
      calls: 69,
      agree: 68,
      refusedByGenerated: 57,
      refusedByReviewed: 56,
    });
    assert.equal(evaluation.spending['generate.test_cases@v1']?.calls, 5, 'one test-case call per policy');
    assert.equal(evaluation.spending['map.create_examples@v2']?.calls, 1, 'one examples call per tool');
    assert.match(report, /cancel_reservation\s+agree on 68 of 69 calls/);
    assert.match(report, /total\s+21 calls \(0 retried\), ~\d+ tokens/);
  });
});
