import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatCompilerBench, runCompilerBench } from './compiler-overhead.ts';

it('the compiler benchmark checks every airline policy and times both parts', async () => {
  const result = await runCompilerBench(1);
  assert.equal(result.policies, 41);
  assert.ok(result.warm.total.p50 > 0);
  assert.match(formatCompilerBench(result, 1), /type-check/);
});
