import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fromOpenAIChat } from '../model/openai-chat.ts';
import type { Verdict } from '../model/verdict.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { mockInvoker } from '../testing/index.ts';
import { writeFixturePack } from './fixture-pack.ts';
import { type GuardPack, loadPack } from './load-pack.ts';
import { caseCall } from './run-cases.ts';
import { packTestFiles } from './test-case.ts';

const shipped = fileURLToPath(new URL('../../packs/tau-airline', import.meta.url));

/** The project kinds a pack may be copied into: what their `package.json` says, if they have one. */
const projects: { kind: string; packageJson?: object }[] = [
  { kind: '"type": "commonjs"', packageJson: { name: 'app', version: '1.0.0', type: 'commonjs' } },
  { kind: '"type": "module"', packageJson: { name: 'app', version: '1.0.0', type: 'module' } },
  { kind: 'a package.json without "type"', packageJson: { name: 'app', version: '1.0.0' } },
  { kind: 'no package.json' },
];

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentguard-module-format-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fresh project of the given kind, holding a copy of the folder at `packs/<name>` of the project. */
async function copyInto(project: (typeof projects)[number], from: string, name: string): Promise<string> {
  const root = await mkdtemp(join(dir, 'project-'));
  if (project.packageJson !== undefined) {
    await writeFile(join(root, 'package.json'), JSON.stringify(project.packageJson));
  }
  const packDir = join(root, 'packs', name);
  await cp(from, packDir, { recursive: true });
  return packDir;
}

/** What a verdict decided, without its timing. */
const decided = (verdict: Verdict) => ({
  decision: verdict.decision,
  violations: verdict.violations.map((violation) => [violation.policy, violation.message, violation.fault]),
});

/** The verdict of every shipped test case of a pack, decided by a runtime over it. */
async function verdicts(pack: GuardPack): Promise<ReturnType<typeof decided>[]> {
  const runtime = new GuardRuntime([pack]);
  try {
    const results = [];
    for (const testCase of (await packTestFiles(pack.dir)).flatMap((file) => file.cases)) {
      const { call, context } = caseCall(pack, testCase);
      results.push(decided(await runtime.check(call, context)));
    }
    return results;
  } finally {
    await runtime.close();
  }
}

/** The pack as an unreviewed one, whose guard code the runtime runs in a worker. */
const unreviewed = (pack: GuardPack): GuardPack => ({ ...pack, manifest: { ...pack.manifest, reviewed: false } });

describe('a guard pack copied into another project', () => {
  let expected: ReturnType<typeof decided>[];
  before(async () => {
    expected = await verdicts(await loadPack(shipped));
    assert.ok(expected.length > 50);
  });

  for (const project of projects) {
    it(`loads every guard and decides like the shipped pack in a project with ${project.kind}`, async () => {
      const pack = await loadPack(await copyInto(project, shipped, 'tau-airline'));
      assert.equal(pack.manifest.reviewed, true);
      const missing = [...pack.tools.values()].flatMap((tool) =>
        tool.policies.flatMap((policy) => (policy.missingReason === undefined ? [] : [policy.missingReason])),
      );
      assert.deepEqual(missing, []);
      assert.deepEqual(await verdicts(pack), expected, 'in-process');
      assert.deepEqual(await verdicts(unreviewed(pack)), expected, 'in a worker');
    });
  }

  it('loads guard modules written as .js the same way under "type": "commonjs"', async () => {
    const fixture = await writeFixturePack({
      policies: [{ id: 'act.limit', body: 'return args.n > 3 ? { message: "too many" } : undefined;' }],
    });
    const packDir = await copyInto(projects[0] as (typeof projects)[number], fixture, 'fixture');
    await rm(fixture, { recursive: true, force: true });
    const pack = await loadPack(packDir);
    const context = { conversation: fromOpenAIChat([], 'messages'), invoker: mockInvoker({}), now: new Date() };
    for (const candidate of [pack, unreviewed(pack)]) {
      const runtime = new GuardRuntime([candidate]);
      const verdict = await runtime.check({ id: 'call_1', name: 'act', arguments: { n: 9 } }, context);
      await runtime.close();
      assert.deepEqual(decided(verdict), { decision: 'deny', violations: [['act.limit', 'too many', undefined]] });
    }
  });
});
