import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatPolicyLatency, runPolicyLatency } from './policy-latency.ts';

it('the policy breakdown times every enforced policy of the write calls and the whole decision twice', async () => {
  const result = await runPolicyLatency(1, 1);
  assert.equal(result.decision.calls, 298);
  assert.ok(result.decision.first.p50 > 0 && result.decision.again.p50 > 0);
  const policies = result.policies.map((row) => row.policy);
  for (const policy of ['cancel.user_confirmation', 'flights.user_confirmation', 'book.user_confirmation'])
    assert.ok(policies.includes(policy), policy);
  assert.equal(result.policies.find((row) => row.policy === 'cancel.user_confirmation')?.calls, 69);
  assert.match(formatPolicyLatency(result), /whole decision \(298 calls\)[\s\S]*cancel\.user_confirmation/);
});
