import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { packDir, recordingFile } from '../../scripts/mcp-filesystem-build.ts';
import { rebuildMcpFilesystem } from '../../scripts/rebuild-mcp-filesystem.ts';
import { readCassette } from '../llm/cassette.ts';
import { manifestSchema } from '../pack/manifest.ts';
import { readSpecDirectory } from '../pack/spec-directory.ts';

describe('building the mcp-filesystem pack with agentguard compile build', { timeout: 120_000 }, () => {
  it('npm run rebuild:mcp-filesystem reproduces the committed pack exactly from the recording', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-mcp-filesystem-'));
    try {
      assert.deepEqual(await rebuildMcpFilesystem(out), []);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('builds the same pack when tools are mapped and policies generated four at a time', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-mcp-filesystem-'));
    try {
      assert.deepEqual(await rebuildMcpFilesystem(out, ['--concurrency', '4']), []);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('every policy carries a remedy, which the mapper wrote', async () => {
    const cassette = await readCassette(recordingFile);
    const drafted = cassette.entries
      .filter((entry) => entry.step.startsWith('map.split_merge'))
      .flatMap((entry) => (JSON.parse(entry.text) as { policies: { remedy?: string }[] }).policies);
    assert.ok(drafted.length > 0);
    assert.ok(drafted.every((policy) => policy.remedy !== undefined));
    const specs = [...(await readSpecDirectory(join(packDir, 'spec'))).values()];
    assert.ok(specs.flatMap((spec) => spec.policies).every((policy) => (policy.remedy ?? '').length > 0));
  });

  it('the recording is labelled as scripted answers and covers both compiler steps', async () => {
    const cassette = await readCassette(recordingFile);
    assert.match(cassette.source, /^scripted answers: .* written by people, not a model output$/);
    const steps = new Set(cassette.entries.map((entry) => entry.step.replace(/@v\d+$/, '')));
    for (const step of ['map.create_policies', 'map.review_enforceability', 'generate.test_cases']) {
      assert.ok(steps.has(step), step);
    }
  });

  it('every policy is enforced; overwriting an existing file asks, the others deny', async () => {
    const manifest = manifestSchema.parse(JSON.parse(await readFile(join(packDir, 'manifest.json'), 'utf8')));
    const effects = Object.values(manifest.guards).flatMap((guard) =>
      guard.policies.map((policy) => [policy.id, policy.state === 'enforced' ? policy.effect : policy.state]),
    );
    assert.equal(effects.length, 12);
    assert.deepEqual(
      effects.filter(([, effect]) => effect !== 'deny'),
      [['write_file.approval_to_overwrite', 'ask']],
    );
  });
});
