import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadPack } from '../../pack/load-pack.ts';

const pack = await loadPack(fileURLToPath(new URL('../../../packs/tau-airline/', import.meta.url)));
const flatten = (text: string) => text.replace(/\s+/g, ' ');

describe('the tau-airline pack', () => {
  it('quotes every reference verbatim from its policy document', () => {
    const document = flatten(pack.policyDocument);
    for (const spec of pack.specs.values()) {
      for (const policy of spec.policies) {
        for (const reference of policy.references)
          assert.ok(document.includes(flatten(reference)), `${policy.id}: ${reference}`);
      }
    }
    for (const policy of pack.manifest.general) {
      for (const reference of policy.references) assert.ok(document.includes(flatten(reference)), policy.id);
    }
  });
  it('has a check and examples of both kinds for every enforced policy, and a reason for every other', () => {
    for (const tool of pack.tools.values()) {
      for (const policy of tool.policies) {
        if (policy.entry.state === 'enforced') {
          assert.equal(typeof policy.check, 'function', policy.spec.id);
          assert.ok(
            policy.spec.compliance_examples.length > 0 && policy.spec.violation_examples.length > 0,
            policy.spec.id,
          );
        } else {
          assert.ok(policy.entry.reason.length > 0, policy.spec.id);
        }
      }
    }
  });
  it('guards every tool that changes the database', () => {
    const writes = [...pack.tools.values()].filter(
      (tool) => !tool.spec.readOnly && tool.spec.name !== 'transfer_to_human_agents',
    );
    assert.equal(writes.length, 6);
    for (const tool of writes)
      assert.ok(
        tool.policies.some((policy) => policy.entry.state === 'enforced'),
        tool.spec.name,
      );
  });
});
