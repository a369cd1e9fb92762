import assert from 'node:assert/strict';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { approvePack } from './approve-pack.ts';
import { type FixturePolicy, writeFixturePack } from './fixture-pack.ts';
import { loadPack } from './load-pack.ts';
import { packContentHashes, packFingerprint } from './review-hashes.ts';

const cases = JSON.stringify([
  { tool: 'act', policy: 'act.limit', kind: 'violation', example: 'n is 9', arguments: { n: 9 } },
]);

async function unreviewedPack(
  policies: FixturePolicy[] = [{ id: 'act.limit', body: 'return args.n > 3 ? { message: "too many" } : undefined;' }],
) {
  return writeFixturePack({ policies, reviewed: false, files: { 'tests/act.cases.json': cases } });
}

describe('approvePack', () => {
  it('records who, when and the hashes covered, and the pack then loads as reviewed', async () => {
    const dir = await unreviewedPack();
    const result = await approvePack(dir, { by: 'policy-owner@example.com', now: new Date('2026-01-02T03:04:05Z') });
    assert.ok(result.approved);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.reviewed, true);
    assert.equal(manifest.review.by, 'policy-owner@example.com');
    assert.equal(manifest.review.at, '2026-01-02T03:04:05.000Z');
    assert.deepEqual(Object.keys(manifest.review.hashes).sort(), [
      'guards/act.js',
      'manifest.json#policies',
      'policy.md',
      'spec/act.json',
      'tests/act.cases.json',
      'tools.json',
    ]);
    const pack = await loadPack(dir);
    assert.equal(pack.manifest.reviewed, true);
    assert.equal(pack.changedSinceReview, undefined);
    assert.equal(typeof pack.tools.get('act')?.policies[0]?.check, 'function');
  });

  for (const [what, edit] of [
    ['a guard', (dir: string) => appendFile(join(dir, 'guards/act.js'), '\n// edited\n')],
    ['a spec', (dir: string) => appendFile(join(dir, 'spec/act.json'), ' ')],
    ['a test case file', (dir: string) => writeFile(join(dir, 'tests/act.cases.json'), '[]')],
    ['a new file', (dir: string) => writeFile(join(dir, 'guards/extra.js'), 'export {};')],
    ['a removed file', (dir: string) => rm(join(dir, 'tests/act.cases.json'))],
  ] as const) {
    it(`loads the pack as unreviewed after a change to ${what}, naming it`, async () => {
      const dir = await unreviewedPack();
      assert.ok((await approvePack(dir, { by: 'policy-owner@example.com' })).approved);
      await edit(dir);
      const pack = await loadPack(dir);
      assert.equal(pack.manifest.reviewed, false);
      assert.equal(pack.changedSinceReview?.length, 1);
      assert.equal(pack.tools.get('act')?.policies[0]?.check, undefined, 'unreviewed code is not imported');
    });
  }

  it("voids the approval when a policy's state changes in the manifest", async () => {
    const dir = await unreviewedPack();
    assert.ok((await approvePack(dir, { by: 'policy-owner@example.com' })).approved);
    const file = join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(file, 'utf8'));
    manifest.guards.act.policies[0] = { id: 'act.limit', state: 'archived', reason: 'no longer applies' };
    await writeFile(file, JSON.stringify(manifest));
    assert.deepEqual((await loadPack(dir)).changedSinceReview, [{ path: 'manifest.json#policies', change: 'changed' }]);
  });

  it('refuses while a policy is not enforced, unless the reviewer accepts it explicitly', async () => {
    const dir = await unreviewedPack([
      { id: 'act.limit', body: 'return undefined;' },
      { id: 'act.vague', state: 'not_enforced' },
    ]);
    assert.deepEqual(await approvePack(dir, { by: 'policy-owner@example.com' }), {
      approved: false,
      notEnforced: ['act.vague'],
    });
    assert.equal((await loadPack(dir)).manifest.reviewed, false);
    const accepted = await approvePack(dir, { by: 'policy-owner@example.com', acceptNotEnforced: true });
    assert.ok(accepted.approved);
    assert.deepEqual(accepted.review.acceptedNotEnforced, ['act.vague']);
    assert.equal((await loadPack(dir)).manifest.reviewed, true);
  });

  it('refuses when the pack changed since the reviewer saw it', async () => {
    const dir = await unreviewedPack();
    const pack = await loadPack(dir);
    const seen = packFingerprint(await packContentHashes(dir, pack.manifest));
    assert.ok(
      (await approvePack(dir, { by: 'policy-owner@example.com', fingerprint: seen, now: new Date(0) })).approved,
    );
    await appendFile(join(dir, 'guards/act.js'), '\n// edited\n');
    assert.deepEqual(await approvePack(dir, { by: 'policy-owner@example.com', fingerprint: seen }), {
      approved: false,
      changedSinceSeen: true,
    });
    assert.equal((await loadPack(dir)).manifest.review?.at, new Date(0).toISOString());
  });

  it('refuses an approval without a name', async () => {
    const dir = await unreviewedPack();
    await assert.rejects(approvePack(dir, { by: '  ' }), /needs the name of who approves/);
  });
});
