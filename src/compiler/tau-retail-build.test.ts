import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { rebuildTauRetail } from '../../scripts/rebuild-tau-retail.ts';
import { packDir, recordingFile } from '../../scripts/tau-retail-build.ts';
import { readCassette } from '../llm/cassette.ts';
import { manifestSchema } from '../pack/manifest.ts';

describe('building the tau-retail pack with agentguard compile build', { timeout: 120_000 }, () => {
  it('npm run rebuild:tau-retail reproduces the committed pack exactly from the recording', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-tau-retail-'));
    try {
      assert.deepEqual(await rebuildTauRetail(out), []);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('the recording answers from the reviewed pack and covers both compiler steps', async () => {
    const cassette = await readCassette(recordingFile);
    assert.match(cassette.source, /^answers from the reviewed pack packs\/tau-retail/);
    const steps = new Set(cassette.entries.map((entry) => entry.step.replace(/@v\d+$/, '')));
    for (const step of ['map.create_policies', 'map.review_enforceability', 'generate.test_cases']) {
      assert.ok(steps.has(step), step);
    }
  });

  it('every policy is enforced, the one archived aside; all deny but the identical-item checks, which ask', async () => {
    const manifest = manifestSchema.parse(JSON.parse(await readFile(join(packDir, 'manifest.json'), 'utf8')));
    const states = Object.values(manifest.guards).flatMap((guard) =>
      guard.policies.map((policy) => [policy.id, policy.state === 'enforced' ? policy.effect : policy.state]),
    );
    assert.equal(states.filter(([, state]) => state === 'deny').length, 70);
    assert.deepEqual(
      states.filter(([, state]) => state !== 'deny'),
      [
        ['exchange_delivered_order_items.new_item_different_option', 'ask'],
        ['modify_pending_order_items.new_item_different_option', 'ask'],
        ['transfer_to_human_agents.summary_from_conversation', 'archived'],
      ],
    );
  });
});
