import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCompilerEvaluation } from '../../scripts/eval-compiler.ts';
import type { CompilerEvaluation } from './compiler-evaluation.ts';

const recording = fileURLToPath(new URL('../../data/compiler-eval/cancel.recording.json', import.meta.url));
const measured = fileURLToPath(new URL('../../data/compiler-eval/measured.recording.json', import.meta.url));
const facts = fileURLToPath(new URL('../../data/compiler-eval/facts.recording.json', import.meta.url));
const rerun = fileURLToPath(new URL('../../data/compiler-eval/facts-rerun.recording.json', import.meta.url));
const fifth = fileURLToPath(new URL('../../data/compiler-eval/fifth.recording.json', import.meta.url));
const sixth = fileURLToPath(new URL('../../data/compiler-eval/sixth.recording.json', import.meta.url));

/**
 * The evaluation replayed from a recording of five tools mapped and three generated; `extra` arguments such as
 * `--draft-domain` (a recording made before the compiler's domain step).
 */
async function threeToolsFrom(recording: string, ...extra: string[]): Promise<CompilerEvaluation> {
  const out = await mkdtemp(join(tmpdir(), 'agentguard-eval-compiler-'));
  const json = join(out, 'evaluation.json');
  await runCompilerEvaluation([
    '--replay',
    recording,
    '--generate',
    'cancel_reservation,book_reservation,update_reservation_flights',
    '--out',
    out,
    '--json',
    json,
    ...extra,
  ]);
  return JSON.parse(await readFile(json, 'utf8')) as CompilerEvaluation;
}

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
      '--draft-domain',
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
      askedByGenerated: 0,
      refusedByReviewed: 56,
    });
    assert.equal(evaluation.spending['generate.test_cases@v3']?.calls, 5, 'one test-case call per policy');
    assert.equal(evaluation.spending['map.create_examples@v2']?.calls, 1, 'one examples call per tool');
    assert.match(report, /cancel_reservation\s+agree on 68 of 69 calls, 99%, ask counted as not allowed/);
    assert.match(report, /\(asked\s+0\) reviewed agrees on\s+15, refuses where reviewed allows\s+0%/);
    assert.match(report, /total\s+21 calls \(0 retried\), ~\d+ tokens/);
  });
  it('reproduces the measured run of a chat model: five tools mapped, three generated', async () => {
    const evaluation = await threeToolsFrom(measured, '--draft-domain');
    const { precision, recall } = evaluation.mapping.reference;
    assert.deepEqual([precision.toFixed(3), recall.toFixed(3)], ['0.870', '0.870']);
    assert.equal(evaluation.mapping.grouping.fuzzy_rand_index.toFixed(3), '0.936');
    assert.deepEqual(evaluation.tests, { cases: 211, passed: 211 });
    assert.deepEqual(
      Object.fromEntries(Object.entries(evaluation.replay.tools).map(([tool, figures]) => [tool, figures.agree])),
      { book_reservation: 47, update_reservation_flights: 83, cancel_reservation: 64 },
    );
    const total = Object.values(evaluation.spending).reduce((sum, step) => sum + step.calls, 0);
    assert.equal(total, 135);
  });

  it('reproduces four runs of a chat model: the amount charged, alongside values, values on file, statements that agree', async () => {
    /** Mapping P / R and FRI, tests, agreement per tool, the most a policy refuses beyond the reviewed pack, calls. */
    const figures = async (file: string) => {
      const evaluation = await threeToolsFrom(file);
      const { precision, recall } = evaluation.mapping.reference;
      const beyond = evaluation.replay.policies.map(
        (policy) => (policy.refused - policy.refusedByReviewed) / policy.calls,
      );
      return {
        mapping: [precision, recall, evaluation.mapping.grouping.fuzzy_rand_index].map((value) => value.toFixed(3)),
        tests: evaluation.tests,
        agree: Object.fromEntries(Object.entries(evaluation.replay.tools).map(([tool, { agree }]) => [tool, agree])),
        beyond: Math.max(...beyond).toFixed(3),
        calls: Object.values(evaluation.spending).reduce((sum, step) => sum + step.calls, 0),
        domainSteps: evaluation.spending['generate.domain_description@v2']?.calls,
      };
    };
    const runs: [string, Awaited<ReturnType<typeof figures>>][] = [
      // The third run: no tool meets the target.
      [
        facts,
        {
          mapping: ['0.885', '0.852', '0.945'],
          tests: { cases: 203, passed: 203 },
          agree: { book_reservation: 44, update_reservation_flights: 96, cancel_reservation: 63 },
          beyond: '0.094',
          calls: 133,
          domainSteps: 1,
        },
      ],
      // The fourth run, on the same prompts, meets the 95% agreement on each tool, and no policy refuses more than 10%
      // of its tool's calls where the reviewed pack allows them.
      [
        rerun,
        {
          mapping: ['0.887', '0.870', '0.935'],
          tests: { cases: 220, passed: 220 },
          agree: { book_reservation: 51, update_reservation_flights: 100, cancel_reservation: 66 },
          beyond: '0.029',
          calls: 136,
          domainSteps: 1,
        },
      ],
      // The fifth, on the prompts that list a policy that a call's two statements of one fact agree: cancellations and
      // bookings meet the target, flight changes do not.
      [
        fifth,
        {
          mapping: ['0.723', '0.870', '0.942'],
          tests: { cases: 211, passed: 211 },
          agree: { book_reservation: 51, update_reservation_flights: 91, cancel_reservation: 68 },
          beyond: '0.019',
          calls: 135,
          domainSteps: 1,
        },
      ],
      // The sixth, on the prompts whose rule for an action binds the items kept in a new class of service: flight
      // changes meet the target, bookings miss it by one call, cancellations do not.
      [
        sixth,
        {
          mapping: ['0.790', '0.907', '0.935'],
          tests: { cases: 204, passed: 204 },
          agree: { book_reservation: 50, update_reservation_flights: 103, cancel_reservation: 58 },
          beyond: '0.159',
          calls: 131,
          domainSteps: 1,
        },
      ],
    ];
    for (const [file, expected] of runs) assert.deepEqual(await figures(file), expected, file);
  });
});
