import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatBench, runBench } from './guard-latency.ts';

it('the latency benchmark measures every tool beside its bare call', async () => {
  const result = await runBench(1, 1);
  const groups = result.rows.map((row) => row.group);
  for (const group of ['all calls', 'write calls', 'read calls', 'cancel_reservation', 'book_reservation'])
    assert.ok(groups.includes(group), group);
  assert.equal(result.rows.find((row) => row.group === 'all calls')?.calls, 1164);
  assert.ok(result.replay.callsPerSecond > 0);
  assert.equal(result.cedar.calls, 69);
  assert.ok(result.cedar.p50 > 0 && result.cold.p50 > 0);
  assert.ok(result.coldAfterWarmUp.cases > 50 && result.coldAfterWarmUp.p50 > 0);
  assert.equal(result.coldAfterWarmUp.calls, result.cold.calls);
  assert.equal(result.cedar.agreeing, result.cedar.calls);
  assert.match(formatBench(result), /guard p50[\s\S]*cedar: cancel, 3 rules[\s\S]*after warmUp\(\)/);
});
