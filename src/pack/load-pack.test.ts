import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { InputError } from '../errors.ts';
import { writeFixturePack } from './fixture-pack.ts';
import { loadPack } from './load-pack.ts';
import { fromToolGuardSpec, toolGuardSpecSchema, toToolGuardSpec } from './policy-spec.ts';

const policies = [{ id: 'act.limit', body: 'return undefined;' }];

async function loadError(files: Record<string, string>): Promise<InputError> {
  const dir = await writeFixturePack({ policies, files });
  try {
    await loadPack(dir);
  } catch (error) {
    assert.ok(error instanceof InputError, String(error));
    assert.equal(error.code, 'invalid_pack');
    return error;
  }
  assert.fail('the pack loaded');
}

describe('loadPack', () => {
  it('loads a pack with its tools, specs and checks', async () => {
    const pack = await loadPack(await writeFixturePack({ policies }));
    assert.equal(pack.manifest.domain, 'fixture');
    assert.deepEqual([...pack.tools.keys()], ['act', 'look']);
    assert.equal(typeof pack.tools.get('act')?.policies[0]?.check, 'function');
  });
  it("takes an enforced policy's effect from its spec when the manifest gives none; the manifest's wins", async () => {
    const dir = await writeFixturePack({
      policies: [
        { id: 'act.limit', body: 'return undefined;' },
        { id: 'act.other', body: 'return undefined;' },
      ],
    });
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    manifest.guards.act.policies = [
      { id: 'act.limit', state: 'enforced' },
      { id: 'act.other', state: 'enforced', effect: 'deny' },
    ];
    const spec = JSON.parse(await readFile(join(dir, 'spec/act.json'), 'utf8'));
    for (const policy of spec.policies) policy.effect = 'ask';
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    await writeFile(join(dir, 'spec/act.json'), JSON.stringify(spec));
    const pack = await loadPack(dir);
    assert.deepEqual(
      pack.tools.get('act')?.policies.map(({ entry }) => [entry.id, entry.state === 'enforced' ? entry.effect : null]),
      [
        ['act.limit', 'ask'],
        ['act.other', 'deny'],
      ],
    );
  });
  it("reads a tool-policy spec written in ToolGuard's format", async () => {
    const toolGuard = {
      policies: [
        {
          policy_name: 'Limit',
          description: 'Acts must be small.',
          references: ['Acts must be small.'],
          violating_examples: ['n is 9'],
          compliance_examples: ['n is 1'],
        },
      ],
    };
    const dir = await writeFixturePack({
      policies: [{ id: 'act.limit', body: 'return undefined;' }],
      files: { 'spec/act.json': JSON.stringify(toolGuard) },
    });
    const pack = await loadPack(dir);
    assert.deepEqual(
      pack.specs.get('act')?.policies.map((policy) => [policy.id, policy.violation_examples]),
      [['act.limit', ['n is 9']]],
    );
  });
  it('names the file and the line of a JSON syntax error', async () => {
    const error = await loadError({ 'manifest.json': '{\n  "format": 1,\n  oops\n}' });
    assert.match(error.message, /manifest\.json/);
    assert.match(error.message, /line 3/);
  });
  it('lists every schema problem with its JSON path', async () => {
    const error = await loadError({
      'manifest.json': JSON.stringify({
        format: 2,
        domain: '',
        policyDocument: 'policy.md',
        reviewed: true,
        tools: 'tools.json',
        guards: {},
        general: [],
      }),
    });
    const locations = error.issues.map((issue) => issue.location);
    assert.ok(locations.includes('$.format'), locations.join());
    assert.ok(locations.includes('$.domain'), locations.join());
    assert.ok(locations.includes('$.description'), locations.join());
  });
  it('reports a policy of the manifest that the spec lacks', async () => {
    const error = await loadError({ 'spec/act.json': JSON.stringify({ tool: 'act', policies: [] }) });
    assert.deepEqual(
      error.issues.map((issue) => issue.location),
      ['$.guards.act.policies[0]'],
    );
    assert.match(error.message, /`act.limit` is not in the tool-policy spec/);
  });
  it('reports a malformed tool spec with its path', async () => {
    const error = await loadError({
      'tools.json': JSON.stringify([{ name: 'act', description: 'x', parameters: {} }]),
    });
    assert.deepEqual(
      error.issues.map((issue) => issue.location),
      ['$[0].readOnly'],
    );
  });
  it('reports a missing file', async () => {
    const error = await loadError({
      'manifest.json': JSON.stringify({
        format: 1,
        domain: 'x',
        description: '',
        policyDocument: 'policy.md',
        reviewed: true,
        tools: 'missing.json',
        guards: {},
        general: [],
      }),
    });
    assert.match(error.message, /missing\.json/);
    assert.match(error.message, /cannot read/);
  });
});

describe("ToolGuard's spec format", () => {
  const dir = fileURLToPath(new URL('../../data/toolguard-airline-spec/', import.meta.url));
  it('reads all five oracle specs, keeping skip flags, and writes them back', async () => {
    const files = (await readdir(dir)).filter((name) => name.endsWith('.json'));
    assert.equal(files.length, 5);
    for (const file of files) {
      const source = toolGuardSpecSchema.parse(JSON.parse(await readFile(join(dir, file), 'utf8')));
      const tool = file.replace('.json', '');
      const { spec, skipped } = fromToolGuardSpec(tool, source);
      assert.equal(spec.policies.length, source.policies.filter((policy) => policy.references.length > 0).length);
      assert.equal(
        skipped.length,
        source.policies.filter((policy) => policy.skip && policy.references.length > 0).length,
      );
      const back = toToolGuardSpec(spec, new Set(skipped));
      assert.deepEqual(
        back.policies.map((policy) => [policy.policy_name, policy.references, policy.skip ?? false]),
        source.policies
          .filter((policy) => policy.references.length > 0)
          .map((policy) => [policy.policy_name, policy.references, policy.skip ?? false]),
      );
    }
  });
});
