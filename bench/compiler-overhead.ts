/**
 * The compiler's own cost per policy, outside the model: type-checking a policy's code and running its test cases in
 * the isolate sandbox, over the 37 enforced policies of the airline pack. One cold pass (a fresh type checker), then
 * warm passes. Run: `npm run bench:compiler` (BENCH_PASSES sets the warm passes, default 3).
 */
import { readdir, readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPolicyCode } from '../src/compiler/check-policy.ts';
import { policyFile } from '../src/compiler/pack-layout.ts';
import { GuardTypeChecker } from '../src/compiler/type-checker.ts';
import { loadPack } from '../src/pack/load-pack.ts';
import type { TestCase } from '../src/pack/test-case.ts';
import { quantile } from '../src/replay/report.ts';
import { IsolateSandbox } from '../src/sandbox/isolate-sandbox.ts';

const packDir = fileURLToPath(new URL('../packs/tau-airline/', import.meta.url));

/** Milliseconds per policy: type-check, tests, and both. */
export interface OverheadFigures {
  policies: number;
  cold: { typeCheck: number; tests: number };
  warm: Record<'typeCheck' | 'tests' | 'total', { p50: number; p99: number; max: number }>;
}

/** Measures one cold pass and `passes` warm passes over every enforced policy. */
export async function runCompilerBench(passes: number): Promise<OverheadFigures> {
  const pack = await loadPack(packDir, { importGuards: false });
  const files = new Map<string, string>([['types.ts', await readFile(join(packDir, 'types.ts'), 'utf8')]]);
  for (const name of await readdir(join(packDir, 'guards', 'lib'))) {
    files.set(`guards/lib/${name}`, await readFile(join(packDir, 'guards', 'lib', name), 'utf8'));
  }
  const work: { policy: string; file: string; code: string; cases: TestCase[] }[] = [];
  for (const [name, tool] of pack.tools) {
    if (tool.policies.length === 0) continue;
    const cases = JSON.parse(await readFile(join(packDir, 'tests', `${name}.cases.json`), 'utf8')) as TestCase[];
    for (const policy of tool.policies.filter((candidate) => candidate.entry.state === 'enforced')) {
      const file = policyFile(name, policy.spec.id);
      work.push({
        policy: policy.spec.id,
        file,
        code: await readFile(join(packDir, file), 'utf8'),
        cases: cases.filter((item) => item.policy === policy.spec.id),
      });
    }
  }
  const typeChecker = new GuardTypeChecker();
  const sandbox = new IsolateSandbox();
  const clock = pack.manifest.clock;
  const check = (item: (typeof work)[number]) =>
    checkPolicyCode({ typeChecker, sandbox, files, ...item, ...(clock === undefined ? {} : { clock }) });
  const first = work[0];
  if (first === undefined) throw new Error('the pack has no enforced policy');
  const cold = await check(first);
  const typeCheck: number[] = [];
  const tests: number[] = [];
  const total: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    for (const item of work) {
      const result = await check(item);
      if (result.failures.length > 0 || result.typeErrors.length > 0) throw new Error(`${item.policy} does not pass`);
      typeCheck.push(result.typeCheckMs);
      tests.push(result.testsMs);
      total.push(result.typeCheckMs + result.testsMs);
    }
  }
  const figures = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const round = (value: number) => Math.round(value * 10) / 10;
    return { p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? 0) };
  };
  return {
    policies: work.length,
    cold: { typeCheck: Math.round(cold.typeCheckMs), tests: Math.round(cold.testsMs) },
    warm: { typeCheck: figures(typeCheck), tests: figures(tests), total: figures(total) },
  };
}

/** The figures as a table. */
export function formatCompilerBench(result: OverheadFigures, passes: number): string {
  const cpu = cpus();
  const row = (name: string, value: { p50: number; p99: number; max: number }) =>
    `${name.padEnd(22)}${String(value.p50).padStart(8)}${String(value.p99).padStart(8)}${String(value.max).padStart(8)}`;
  return [
    `compiler overhead per policy, ms: ${result.policies} airline policies, ${passes} warm passes after one cold check`,
    `machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, Node ${process.version}`,
    `cold (first policy, fresh type checker): type-check ${result.cold.typeCheck}, tests ${result.cold.tests}`,
    '',
    `${'warm'.padEnd(22)}${'p50'.padStart(8)}${'p99'.padStart(8)}${'max'.padStart(8)}`,
    row('type-check', result.warm.typeCheck),
    row('tests in the sandbox', result.warm.tests),
    row('both', result.warm.total),
  ].join('\n');
}

if (import.meta.main) {
  const passes = Number(process.env['BENCH_PASSES'] ?? 3);
  process.stdout.write(`${formatCompilerBench(await runCompilerBench(passes), passes)}\n`);
}
