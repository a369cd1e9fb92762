import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatServiceBench, runServiceBench } from './service.ts';

it('the service benchmark loads the service and the in-process runtime with only 200s', async () => {
  const result = await runServiceBench(2, 10);
  assert.equal(result.rows.length, 3);
  for (const row of result.rows) {
    assert.equal(row.checks, 20);
    assert.equal(row.failures, 0);
    assert.ok(row.checksPerSecond > 0 && row.p99 >= row.p50);
  }
  assert.match(formatServiceBench(result), /checks\/s/);
});
