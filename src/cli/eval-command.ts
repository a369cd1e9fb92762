import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { evaluateSpec } from '../eval/spec-metrics.ts';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import { loadPack } from '../pack/load-pack.ts';
import { runCases } from '../pack/run-cases.ts';
import { readSpecDirectory } from '../pack/spec-directory.ts';
import { testCaseSchema } from '../pack/test-case.ts';

const figure = (value: number) => value.toFixed(3);

/** `agentguard eval spec`: the mapper metrics of a predicted spec against a gold one. */
export async function evalSpecCommand(options: { predicted: string; gold: string; json?: boolean }): Promise<void> {
  const result = evaluateSpec(await readSpecDirectory(options.predicted), await readSpecDirectory(options.gold));
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const lines = [`${'tool'.padEnd(32)}${'P'.padStart(7)}${'R'.padStart(7)}${'F1'.padStart(7)}${'FRI'.padStart(7)}`];
  for (const [tool, scores] of Object.entries(result.per_tool)) {
    const { precision, recall, f1 } = scores.reference;
    lines.push(
      `${tool.padEnd(32)}${figure(precision).padStart(7)}${figure(recall).padStart(7)}${figure(f1).padStart(7)}${figure(scores.grouping.fuzzy_rand_index).padStart(7)}`,
    );
  }
  const { precision, recall, f1 } = result.reference;
  lines.push(
    `${'overall'.padEnd(32)}${figure(precision).padStart(7)}${figure(recall).padStart(7)}${figure(f1).padStart(7)}${figure(result.grouping.fuzzy_rand_index).padStart(7)}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `agentguard eval pack`: a pack's test pass rate on a suite of cases. */
export async function evalPackCommand(options: { pack: string; cases: string; json?: boolean }): Promise<void> {
  const pack = await loadPack(options.pack);
  const cases = parseInput(
    z.array(testCaseSchema),
    parseJsonText(await readFile(options.cases, 'utf8'), options.cases),
    options.cases,
  );
  const results = await runCases(pack, cases);
  const count = (predicate: (result: (typeof results)[number]) => boolean) => results.filter(predicate).length;
  const summary = {
    cases: results.length,
    passed: count((result) => result.outcome === 'pass'),
    test_pass_rate: results.length === 0 ? 0 : count((result) => result.outcome === 'pass') / results.length,
    compliance_failures: count((result) => result.outcome === 'fail' && result.testCase.kind === 'compliance'),
    violation_failures: count((result) => result.outcome === 'fail' && result.testCase.kind === 'violation'),
    errors: count((result) => result.outcome === 'error'),
    failures: results
      .filter((result) => result.outcome !== 'pass')
      .map((result) => ({
        policy: result.testCase.policy,
        kind: result.testCase.kind,
        example: result.testCase.example,
        outcome: result.outcome,
        detail: result.detail,
      })),
  };
  if (options.json) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  const lines = [
    `test pass rate ${figure(summary.test_pass_rate)} (${summary.passed} of ${summary.cases} cases)`,
    `compliance failures ${summary.compliance_failures}, violation failures ${summary.violation_failures}, errors ${summary.errors}`,
    ...summary.failures.map(
      (failure) =>
        `  ${failure.outcome} ${failure.policy} (${failure.kind}): ${failure.example}\n    ${failure.detail}`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
