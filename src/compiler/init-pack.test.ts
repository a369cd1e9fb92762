import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadPack } from '../pack/load-pack.ts';
import { manifestSchema } from '../pack/manifest.ts';
import { runCases } from '../pack/run-cases.ts';
import { packTestFiles } from '../pack/test-case.ts';
import { initPack } from './init-pack.ts';
import { GuardTypeChecker } from './type-checker.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--conditions=agentguard-source', join(root, 'src/cli/main.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
  });

/** The walk-through of docs/guard-packs.md: each block after a `<!-- file: path -->` or `<!-- manifest: tool -->`. */
async function walkThrough() {
  const text = await readFile(join(root, 'docs/guard-packs.md'), 'utf8');
  const files = new Map<string, string>();
  const manifest = new Map<string, unknown>();
  for (const match of text.matchAll(/<!-- (file|manifest): (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)) {
    const [, kind, name = '', body = ''] = match;
    if (kind === 'file') files.set(name, `${body}\n`);
    else manifest.set(name, JSON.parse(body));
  }
  return { files, manifest };
}

/** Runs a pack's tests as its user would (`node --test <pack>/tests/`), outside this test's own runner. */
function packTestRun(dir: string) {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  return spawnSync(
    process.execPath,
    ['--conditions=agentguard-source', '--test', '--test-reporter=tap', join(dir, 'tests', '*.test.ts')],
    { cwd: root, encoding: 'utf8', env },
  );
}

/** Every file of a pack, by pack-relative path. */
async function packFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of await readdir(dir, { recursive: true })) {
    if (name.endsWith('.ts')) files.set(name.replaceAll('\\', '/'), await readFile(join(dir, name), 'utf8'));
  }
  return files;
}

/** Type-checks pack files (pack-relative) and what they import, as the compiler does. */
function typeProblems(files: Map<string, string>, targets: string[]): string[] {
  return new GuardTypeChecker().check(files, targets);
}

// Inside the repository (out/ is ignored), so the pack's imports of `agentguard` resolve to this package.
let work: string;
before(async () => {
  await mkdir(join(root, 'out'), { recursive: true });
  work = await mkdtemp(join(root, 'out', 'init-'));
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('agentguard init', () => {
  it('scaffolds a pack that loads, type-checks, passes its tests and fails closed until a policy is written', async () => {
    const { files } = await walkThrough();
    const tools = join(work, 'tools.json');
    await writeFile(tools, files.get('tools.json') ?? '');
    const dir = join(work, 'scaffold');
    const result = cli('init', dir, '--tools', tools);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /guarded tools \(each refuses every call until its policy is written\): send_email/);
    assert.match(result.stdout, /lookups the guards may call: get_contact/);

    const pack = await loadPack(dir);
    assert.deepEqual(
      [...(pack.tools.get('send_email')?.policies.map((policy) => policy.spec.id) ?? [])],
      ['send_email.todo'],
    );
    const written = await packFiles(dir);
    assert.match(
      written.get('types.ts') ?? '',
      /export interface Lookups \{\n {2}get_contact: \{ args: GetContactArgs; result: GetContactResult \};/,
    );
    const guards = [...written.keys()].filter((path) => path.startsWith('guards/'));
    assert.deepEqual(typeProblems(written, guards), []);
    for (const { cases } of await packTestFiles(dir)) {
      assert.deepEqual(
        (await runCases(pack, cases)).map((item) => item.outcome),
        ['pass'],
      );
    }
    const runner = packTestRun(dir);
    assert.equal(runner.status, 0, runner.stdout + runner.stderr);

    const call = join(work, 'call.json');
    await writeFile(
      call,
      JSON.stringify({ name: 'send_email', arguments: { to: 'ana@example.com', subject: 'Hi', body: '.' } }),
    );
    const check = cli('check', '--pack', dir, '--call', call);
    assert.equal(check.status, 2, check.stderr);
    assert.match(JSON.parse(check.stdout).feedback, /the policy of `send_email` is not written yet/);
    assert.match(
      cli('init', dir, '--tools', tools).stderr,
      /is not empty: init writes a new pack into an empty folder/,
    );
  });

  it("the walk-through of docs/guard-packs.md: send_email's own policy, typed lookups and test doubles", async () => {
    const { files, manifest } = await walkThrough();
    const tools = join(work, 'mail-tools.json');
    await writeFile(tools, files.get('tools.json') ?? '');
    const dir = join(work, 'mail');
    assert.equal(cli('init', dir, '--tools', tools).status, 0);
    for (const [path, content] of files) {
      if (path === 'tools.json' || path === 'lookups.json') continue;
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    await rm(join(dir, 'guards/send_email/todo.ts'));
    const manifestFile = join(dir, 'manifest.json');
    const current = manifestSchema.parse(JSON.parse(await readFile(manifestFile, 'utf8')));
    await writeFile(
      manifestFile,
      JSON.stringify({ ...current, guards: { ...current.guards, ...Object.fromEntries(manifest) } }, null, 2),
    );

    const pack = await loadPack(dir);
    const written = await packFiles(dir);
    assert.deepEqual(typeProblems(written, ['guards/send_email.ts', 'guards/send_email/internal_recipient.ts']), []);
    const runner = packTestRun(dir);
    assert.equal(runner.status, 0, runner.stdout + runner.stderr);
    assert.match(runner.stdout, /# pass 3\n# fail 0/);
    const [cases] = await packTestFiles(dir);
    assert.deepEqual(
      (await runCases(pack, cases?.cases ?? [])).map((item) => item.outcome),
      ['pass', 'pass'],
    );

    const call = join(work, 'mail-call.json');
    await writeFile(
      call,
      JSON.stringify({ name: 'send_email', arguments: { to: 'bob@partner.org', subject: 'Hi', body: '…' } }),
    );
    const lookups = join(work, 'mail-lookups.json');
    await writeFile(lookups, files.get('lookups.json') ?? '');
    const check = cli('check', '--pack', dir, '--call', call, '--lookups', lookups);
    assert.equal(check.status, 2, check.stderr);
    assert.equal(JSON.parse(check.stdout).violations[0].message, 'bob@partner.org is not an internal contact');
  });

  it("types mockInvoker's answers by the pack's Lookups: a wrong result or an unknown lookup does not compile", async () => {
    const { files } = await walkThrough();
    const tools = join(work, 'typed-tools.json');
    await writeFile(tools, files.get('tools.json') ?? '');
    const dir = join(work, 'typed');
    assert.equal(cli('init', dir, '--tools', tools).status, 0);
    const written = await packFiles(dir);
    written.set(
      'doubles.ts',
      [
        "import { mockInvoker } from 'agentguard/testing';",
        "import type { Lookups } from './types.ts';",
        "mockInvoker<Lookups>({ get_contact: ({ email }) => ({ email, internal: 'yes' }) });",
        'mockInvoker<Lookups>({ get_contacts: () => ({}) });',
        'mockInvoker<Lookups>({ get_contact: ({ email }) => Promise.resolve({ email, internal: true }) });',
        'mockInvoker({ anything: (args) => args });',
        '',
      ].join('\n'),
    );
    const problems = typeProblems(written, ['doubles.ts']);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0] ?? '', /^doubles\.ts:3: [\s\S]*Type 'string' is not assignable to type 'boolean'/);
    assert.match(problems[1] ?? '', /^doubles\.ts:4: [\s\S]*'get_contacts' does not exist/);
  });

  it('writes a guards/lib/domain.ts that type-checks when the domain has no read-only lookups', async () => {
    const dir = join(work, 'no-lookups');
    const tools = [{ name: 'post', description: 'Posts.', parameters: { type: 'object' }, readOnly: false }];
    await initPack({ dir, domain: 'posts', tools });
    const written = await packFiles(dir);
    assert.match(written.get('types.ts') ?? '', /export interface Lookups \{\n\}/);
    assert.deepEqual(typeProblems(written, ['guards/lib/domain.ts', 'guards/post.ts']), []);
  });
});
