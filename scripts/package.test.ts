/**
 * The package as a user meets it: `npm pack` (which builds `dist/`), then fresh projects install the tarball. One
 * installs it alone, as someone who guards an agent with a reviewed pack does, decides with the shipped airline pack
 * through the AI SDK adapter, and finds that a command needing an optional package names it. The other installs it
 * with every optional peer dependency (the agent frameworks, the compiler's, guard agent's, service's and MCP proxy's
 * packages), uses every entry point from JavaScript, type-checks against them under `nodenext`, loads the shipped
 * packs and a pack published as its own npm package from inside `node_modules`, and runs the CLI. Both installs' sizes
 * and package counts are printed. Run: `npm run test:package` (it reaches only the npm registry, for the peers).
 */
import assert from 'node:assert/strict';
import type { SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startServingCli } from '../src/service/serve-process.ts';
import { filesystemServer } from './mcp-filesystem-build.ts';
import { npm, packTarball, repoPackage, root, run, versionOf } from './packed-project.ts';

/** A package at the version the repository tests with. */
const pinned = (name: string) => `${name}@${versionOf(name)}`;

let work = '';
let tarball = '';
let project = '';
const installed = () => join(project, 'node_modules', 'agentguard');

/** Runs a file or the CLI of the installed package with this Node, in the fresh project. */
function node(args: readonly string[]): SpawnSyncReturns<string> {
  return run(process.execPath, args, project);
}

const cli = (...args: string[]) => node([join(project, 'node_modules', '.bin', 'agentguard'), ...args]);

/** Starts a command of the installed CLI that serves until stopped, and waits for the URL it prints. */
const serving = (args: readonly string[], printed: RegExp) =>
  startServingCli(args, { printed, cli: join(project, 'node_modules', '.bin', 'agentguard'), cwd: project });

/** A fresh project in the work folder with the tarball and the given packages installed. */
async function freshProject(name: string, packages: readonly string[]): Promise<string> {
  const folder = join(work, name);
  await mkdir(folder);
  await writeFile(join(folder, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...packages], folder);
  return folder;
}

/** What an install put in `node_modules`: bytes as `du -sb` counts them, and the packages npm recorded installing. */
async function installSize(folder: string): Promise<{ bytes: number; packages: number }> {
  const du = run('du', ['-sb', 'node_modules'], folder);
  assert.equal(du.status, 0, du.stderr);
  const lock = JSON.parse(await readFile(join(folder, 'node_modules', '.package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  return { bytes: Number.parseInt(du.stdout, 10), packages: Object.keys(lock.packages).length };
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'agentguard-package-'));
  tarball = packTarball(work);
  const optional = [...Object.keys(repoPackage.peerDependencies), 'typescript'];
  project = await freshProject('project', [...optional, '@types/node'].map(pinned));
});

after(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

describe('the package installed alone, to guard an agent with a reviewed pack', () => {
  let light = '';
  let alone = { bytes: 0, packages: 0 };
  const lightCli = (...args: string[]) =>
    run(process.execPath, [join(light, 'node_modules', '.bin', 'agentguard'), ...args], light);

  before(async () => {
    light = await freshProject('light', []);
    alone = await installSize(light);
    // The application's own framework, which the adapter guards, and its own TypeScript, at 7 as a new project's is:
    // agentguard uses TypeScript 5.9's compiler API, and declares no peer range that would stand in the way.
    npm(
      ['install', '--no-audit', '--no-fund', '--prefer-offline', pinned('ai'), pinned('@types/node'), 'typescript@7'],
      light,
    );
  });

  it('installs no optional package and well under half of what the package with every optional peer does', async (t) => {
    const everything = await installSize(project);
    t.diagnostic(`installed alone: ${megabytes(alone.bytes)}, ${alone.packages} packages`);
    t.diagnostic(`with every optional peer: ${megabytes(everything.bytes)}, ${everything.packages} packages`);
    const optional = Object.keys(repoPackage.peerDependencies).filter((name) => name !== 'ai');
    for (const name of optional) assert.ok(!existsSync(join(light, 'node_modules', name)), `${name} was installed`);
    assert.ok(alone.bytes < everything.bytes / 2, `${alone.bytes} bytes against ${everything.bytes}`);
    assert.ok(alone.packages < everything.packages / 2, `${alone.packages} packages against ${everything.packages}`);
  });

  it('guards an AI SDK tool set with the shipped airline pack: an unconfirmed cancellation is denied, a confirmed one runs', async () => {
    await writeFile(
      join(light, 'decide.mjs'),
      `import { fileURLToPath } from 'node:url';
import { jsonSchema, tool } from 'ai';
import { GuardRuntime, loadPack } from 'agentguard';
import { guardTools } from 'agentguard/ai-sdk';
const reservation = { reservation_id: 'ZFA04Y', user_id: 'mia_li_3668', origin: 'JFK', destination: 'SEA', flight_type: 'one_way',
  cabin: 'economy', insurance: 'no', created_at: '2024-05-15T09:00:00', total_baggages: 0, nonfree_baggages: 0, payment_history: [],
  flights: [{ flight_number: 'HAT136', date: '2024-05-20', price: 150, origin: 'JFK', destination: 'SEA' }],
  passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }] };
const user = { user_id: 'mia_li_3668', reservations: ['ZFA04Y'], membership: 'regular', payment_methods: {} };
const lookup = (result) => tool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => result });
const cancelled = [];
const runtime = new GuardRuntime([await loadPack(fileURLToPath(import.meta.resolve('agentguard/packs/tau-airline')))]);
const tools = guardTools(runtime, {
  get_reservation_details: lookup(reservation),
  get_user_details: lookup(user),
  get_flight_on_date_details: lookup({ status: 'available' }),
  cancel_reservation: tool({
    inputSchema: jsonSchema({ type: 'object', properties: { reservation_id: { type: 'string' } } }),
    execute: async ({ reservation_id }) => { cancelled.push(reservation_id); return { status: 'cancelled' }; },
  }),
}, { now: () => new Date('2024-05-15T15:00:00-05:00') });
const asked = [{ role: 'user', content: 'Hi, I am mia_li_3668. Please cancel reservation ZFA04Y, my plans changed.' }];
const confirmed = [...asked, { role: 'assistant', content: 'Reservation ZFA04Y (JFK to SEA, economy). Shall I cancel it?' },
  { role: 'user', content: 'Yes, please go ahead.' }];
async function decide(toolCallId, messages) {
  try {
    await tools.cancel_reservation.execute({ reservation_id: 'ZFA04Y' }, { toolCallId, messages });
    return 'allow';
  } catch (error) {
    return error.name === 'GuardDeniedError' ? 'deny' : \`failed: \${error.message}\`;
  }
}
console.log(JSON.stringify({ unconfirmed: await decide('call_1', asked), confirmed: await decide('call_2', confirmed), cancelled }));
`,
    );
    const result = run(process.execPath, ['decide.mjs'], light);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { unconfirmed: 'deny', confirmed: 'allow', cancelled: ['ZFA04Y'] });
  });

  it('type-checks against the light install under TypeScript 7 with the types of every library checked', async () => {
    await writeFile(
      join(light, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2023',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
        },
        files: ['usage.ts'],
      }),
    );
    await writeFile(
      join(light, 'usage.ts'),
      `import { fileURLToPath } from 'node:url';
import { type Decision, fromOpenAIChat, GuardRuntime, loadPack } from 'agentguard';
import { guardTools } from 'agentguard/ai-sdk';
import { mockInvoker } from 'agentguard/testing';

const runtime = new GuardRuntime([await loadPack(fileURLToPath(import.meta.resolve('agentguard/packs/tau-airline')))]);
const verdict = await runtime.check(
  { id: 'call_1', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } },
  { conversation: fromOpenAIChat([], 'c'), invoker: mockInvoker({}), now: new Date() },
);
// @ts-expect-error a decision is one of three words, which proves the types resolved rather than fell back to any
const wrong: Decision = 'maybe';
export const tools = guardTools(runtime, {});
export { verdict, wrong };
`,
    );
    const result = run(
      process.execPath,
      [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
      light,
    );
    // Only agentguard's declarations and this file are ours to answer for; a framework's own declarations are not.
    const ours = `${result.stdout}${result.stderr}`
      .split('\n')
      .filter((line) => line.startsWith('usage.ts') || line.includes('node_modules/agentguard/'));
    assert.deepEqual(ours, []);
  });

  it('the deciding commands run, and one that needs an optional package fails naming it and how to install it', async () => {
    await writeFile(
      join(light, 'call.json'),
      JSON.stringify({ id: 'call_1', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } }),
    );
    const pack = 'node_modules/agentguard/packs/tau-airline';
    const checked = lightCli('check', '--pack', pack, '--call', 'call.json');
    assert.equal(checked.status, 2, checked.stderr);
    assert.equal(JSON.parse(checked.stdout).decision, 'deny');
    const started = lightCli('start');
    assert.equal(started.status, 0, started.stderr);

    const served = lightCli('serve', '--pack', pack, '--port', '0');
    assert.equal(served.status, 1);
    assert.equal(
      served.stderr,
      `error: the decision service needs the package \`fastify\`: run \`npm install fastify@${repoPackage.peerDependencies.fastify}\`\n`,
    );
    const reviewed = lightCli('review', pack, '--no-open');
    assert.equal(reviewed.status, 1);
    assert.match(
      reviewed.stderr,
      /^error: the installed `typescript` 7\.\S+ has no compiler API, which agentguard uses: run `npm install typescript@5\.9`\n$/,
    );
    const compiled = lightCli('compile', 'map', '--policy', 'policy.md', '--tools', 'tools.json', '--out', 'out');
    assert.equal(compiled.status, 1);
    const named = /^error: `agentguard compile map` needs the package `([^`]+)`: run `npm install ([^`]+)`\n$/.exec(
      compiled.stderr,
    );
    assert.ok(named !== null, compiled.stderr);
    const [, name = '', install = ''] = named;
    assert.equal(install, `${name}@${repoPackage.peerDependencies[name]}`);
  });
});

describe('the installed package', () => {
  it('imports every entry point from ESM JavaScript, and the root entry loads no framework', async () => {
    // Entries of code; `./package.json` and the packs (`./packs/*`, folders of files) are not modules.
    const entries = Object.keys(repoPackage.exports).filter(
      (entry) => entry.startsWith('./') && !/json$|\*/.test(entry),
    );
    const specifiers = entries.map((entry) => `agentguard${entry.slice(1)}`);
    await writeFile(
      join(project, 'entries.mjs'),
      `import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({ resolve(specifier, context, next) { const found = next(specifier, context); loaded.add(found.url); return found; } });
const rootEntry = await import('agentguard');
const frameworkUrls = [...loaded].filter((url) => /node_modules\\/(ai|@openai|langchain|@langchain)\\//.test(url));
const names = {};
for (const specifier of ${JSON.stringify(specifiers)}) names[specifier] = Object.keys(await import(specifier)).length;
console.log(JSON.stringify({ root: Object.keys(rootEntry).length, frameworkUrls, names }));
`,
    );
    const result = node(['entries.mjs']);
    assert.equal(result.status, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { frameworkUrls: string[]; names: Record<string, number> };
    assert.deepEqual(report.frameworkUrls, [], 'importing agentguard loaded a framework');
    for (const specifier of specifiers) assert.ok((report.names[specifier] ?? 0) > 0, `${specifier} exports nothing`);
  });

  it('resolves the shipped packs by module name and loads them', async () => {
    await writeFile(
      join(project, 'packs.mjs'),
      `import { fileURLToPath } from 'node:url';
import { loadPack } from 'agentguard';
const names = [];
for (const name of ['tau-airline', 'mcp-filesystem']) {
  names.push((await loadPack(fileURLToPath(import.meta.resolve(\`agentguard/packs/\${name}\`)))).manifest.domain);
}
console.log(names.join(' '));
`,
    );
    const result = node(['packs.mjs']);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'tau-airline mcp-filesystem');
  });

  it('type-checks a strict TypeScript file under module and moduleResolution nodenext', async () => {
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2023',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          types: ['node'],
        },
        files: ['usage.ts'],
      }),
    );
    await writeFile(
      join(project, 'usage.ts'),
      `import { fileURLToPath } from 'node:url';
import { type Decision, feedbackFor, fromOpenAIChat, GuardRuntime, loadPack, type Verdict } from 'agentguard';
import { guardTools } from 'agentguard/ai-sdk';
import { guardMiddleware } from 'agentguard/langchain';
import { GuardProxy } from 'agentguard/mcp';
import { guardAgentTools } from 'agentguard/openai-agents';
import { mockInvoker } from 'agentguard/testing';
import type { Reservation } from 'agentguard/packs/tau-airline/guards/lib/records.ts';

// A shipped pack, found by module name wherever npm put the package, and the records its lookups answer.
const runtime = new GuardRuntime([await loadPack(fileURLToPath(import.meta.resolve('agentguard/packs/tau-airline')))]);
const verdict: Verdict = await runtime.check(
  { id: 'call_1', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } },
  { conversation: fromOpenAIChat([], 'c'), invoker: mockInvoker({}), now: new Date() },
);
const decision: Decision = verdict.decision;
const text: string = feedbackFor(verdict);
// @ts-expect-error a decision is one of three words, which proves the types resolved rather than fell back to any
const wrong: Decision = 'maybe';
// @ts-expect-error nor is a cabin any word
const cabin: Reservation['cabin'] = 'first';
export const entries = [guardTools, guardAgentTools, guardMiddleware, GuardProxy];
export { cabin, decision, text, wrong };
`,
    );
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = node([tsc, '-p', 'tsconfig.json']);
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  });

  it('the shipped airline pack decides from inside node_modules exactly as in the repository', async () => {
    const trajectories = join(installed(), 'data', 'tau-airline', 'trajectories-gpt-4o.json');
    const inPackage = cli(
      'replay',
      '--pack',
      'node_modules/agentguard/packs/tau-airline',
      '--trajectories',
      trajectories,
      '--out',
      'verdicts.jsonl',
    );
    assert.equal(inPackage.status, 0, inPackage.stderr);
    const inRepo = run(
      process.execPath,
      [
        'src/cli/main.ts',
        'replay',
        '--pack',
        'packs/tau-airline',
        '--trajectories',
        trajectories,
        '--out',
        join(work, 'repo-verdicts.jsonl'),
      ],
      root,
    );
    assert.equal(inRepo.status, 0, inRepo.stderr);
    const decisions = async (file: string) =>
      (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => {
          const { verdict, violations } = JSON.parse(line) as { verdict: string; violations: { policy: string }[] };
          return `${verdict} ${violations.map((violation) => violation.policy).join(',')}`;
        });
    const expected = await decisions(join(work, 'repo-verdicts.jsonl'));
    assert.equal(expected.length, 1164);
    assert.deepEqual(await decisions(join(project, 'verdicts.jsonl')), expected);
  });

  it('npx agentguard check exits 2 for an unconfirmed cancellation, and the other commands run', async () => {
    await writeFile(
      join(project, 'call.json'),
      JSON.stringify({ id: 'call_1', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } }),
    );
    const npx = run(
      'npx',
      [
        '--no-install',
        'agentguard',
        'check',
        '--pack',
        'node_modules/agentguard/packs/tau-airline',
        '--call',
        'call.json',
      ],
      project,
    );
    assert.equal(npx.status, 2, npx.stderr);
    assert.equal(JSON.parse(npx.stdout).decision, 'deny');

    const started = cli('start');
    assert.equal(started.status, 0, started.stderr);
    assert.match(started.stdout, /trajectories replayed\s+200/);

    const spec = cli(
      'eval',
      'spec',
      '--predicted',
      'node_modules/agentguard/packs/tau-airline',
      '--gold',
      'node_modules/agentguard/data/toolguard-airline-spec',
      '--json',
    );
    assert.equal(spec.status, 0, spec.stderr);
    assert.ok(JSON.parse(spec.stdout).reference.f1 > 0.5, spec.stdout);

    for (const command of [[], ['compile'], ['eval'], ['guard-agent']]) {
      const help = cli(...command, '--help');
      assert.equal(help.status, 0, help.stderr);
    }
  });

  it('npx agentguard review serves the page and its assets from the installed package', async () => {
    const page = await serving(
      ['review', 'node_modules/agentguard/packs/tau-airline', '--no-open'],
      /at (http:\S+\/) /,
    );
    try {
      for (const path of ['', 'assets/review.js', 'assets/review.css', 'assets/highlight.js', 'api/pack']) {
        assert.equal((await fetch(`${page.url}${path}`)).status, 200, path);
      }
    } finally {
      assert.equal(await page.stop(), 0);
    }
  });

  it('npx agentguard serve decides over HTTP from the installed package', async () => {
    const service = await serving(
      ['serve', '--pack', 'node_modules/agentguard/packs/tau-airline', '--port', '0', '--lookups', 'tau-airline'],
      /listening on (\S+)/,
    );
    try {
      const base = service.url.replace(/\/$/, '');
      const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as { info: { version: string } };
      assert.equal(openapi.info.version, repoPackage.version);
      const answer = await fetch(`${base}/v1/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          call: { id: 'call_1', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } },
          messages: [{ role: 'user', content: 'Cancel ZFA04Y please' }],
          now: '2024-05-15T15:00:00-05:00',
        }),
      });
      assert.equal(answer.status, 200);
      assert.equal(((await answer.json()) as { decision: string }).decision, 'deny');
    } finally {
      await service.stop();
    }
  });

  it('npx agentguard mcp guards the filesystem server with the shipped pack', async () => {
    const folder = join(work, 'mcp-folder');
    await mkdir(folder);
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    const bin = join(project, 'node_modules', '.bin', 'agentguard');
    const pack = join(installed(), 'packs', 'mcp-filesystem');
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--pack', pack, '--', process.execPath, filesystemServer, folder],
        cwd: project,
      }),
    );
    try {
      const secret = await client.callTool({ name: 'write_file', arguments: { path: '.env', content: 'KEY=1\n' } });
      assert.equal(secret.isError, true);
      const notes = await client.callTool({ name: 'write_file', arguments: { path: 'notes.txt', content: 'hi\n' } });
      assert.notEqual(notes.isError, true, JSON.stringify(notes.content));
      assert.deepEqual(await readdir(folder), ['notes.txt']);
    } finally {
      await client.close();
    }
  });

  it('the shipped SQL access-control program decides from inside node_modules', async () => {
    const file = async (name: string, value: unknown) => {
      await writeFile(join(project, name), typeof value === 'string' ? value : JSON.stringify(value));
      return name;
    };
    const args = [
      'guard-agent',
      'check',
      '--request',
      await file('request.txt', 'Nurses may read only their columns.'),
      '--spec',
      await file('spec.txt', 'A SQL agent over eICU.'),
      '--input',
      await file('input.json', {
        permissions: { patient: ['uniquepid', 'gender'] },
        schema: { patient: ['uniquepid', 'gender', 'age'] },
      }),
      '--compiled',
      'node_modules/agentguard/packs/sql-access-control',
    ];
    const denied = cli(...args, '--output', await file('denied.json', { query: 'SELECT age FROM patient' }));
    assert.equal(denied.status, 2, denied.stderr);
    assert.deepEqual(JSON.parse(denied.stdout).reasons, [{ kind: 'access', table: 'patient', columns: ['age'] }]);
    const granted = cli(...args, '--output', await file('granted.json', { query: 'SELECT gender FROM patient' }));
    assert.equal(granted.status, 0, granted.stderr);
  });

  it('a TypeScript pack published as its own npm package loads, reviewed in process and unreviewed in a worker', async () => {
    const source = join(work, 'airline-pack');
    await cp(join(installed(), 'packs', 'tau-airline'), source, { recursive: true });
    await writeFile(join(source, 'package.json'), JSON.stringify({ name: 'airline-pack', version: '1.0.0' }));
    const manifest = JSON.parse(await readFile(join(source, 'manifest.json'), 'utf8')) as { reviewed: boolean };
    await writeFile(join(source, 'manifest.json'), JSON.stringify({ ...manifest, reviewed: false }));
    const tarball = npm(['pack', '--silent', '--pack-destination', work], source).trim().split('\n').at(-1) ?? '';
    npm(['install', '--no-audit', '--no-fund', '--offline', join(work, tarball)], project);
    await writeFile(
      join(project, 'own-pack.mjs'),
      `import { fromOpenAIChat, GuardRuntime, loadPack } from 'agentguard';
import { mockInvoker } from 'agentguard/testing';
const reservation = { reservation_id: 'ZFA04Y', user_id: 'mia_li_3668', origin: 'JFK', destination: 'SEA', flight_type: 'one_way',
  cabin: 'economy', insurance: 'no', created_at: '2024-05-15T09:00:00', total_baggages: 0, nonfree_baggages: 0, payment_history: [],
  flights: [{ flight_number: 'HAT136', date: '2024-05-20', price: 150, origin: 'JFK', destination: 'SEA' }],
  passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }] };
const conversation = fromOpenAIChat([
  { role: 'user', content: 'Hi, I am mia_li_3668. Please cancel reservation ZFA04Y, my plans changed.' },
  { role: 'assistant', content: 'Reservation ZFA04Y (JFK to SEA, economy). Shall I cancel it?' },
  { role: 'user', content: 'Yes, please go ahead.' },
], 'c');
const context = { conversation, now: new Date('2024-05-15T15:00:00-05:00'),
  invoker: mockInvoker({ get_reservation_details: () => reservation, get_flight_on_date_details: () => ({ status: 'available' }),
    get_user_details: () => ({ user_id: 'mia_li_3668', reservations: ['ZFA04Y'], membership: 'regular', payment_methods: {} }) }) };
const call = { id: 'c1', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } };
const shipped = await new GuardRuntime([await loadPack('node_modules/agentguard/packs/tau-airline')]).check(call, context);
const own = new GuardRuntime([await loadPack('node_modules/airline-pack')]);
const unreviewed = await own.check(call, context);
await own.close();
const summary = (verdict) => ({ decision: verdict.decision, violations: verdict.violations.map((violation) => violation.message) });
console.log(JSON.stringify({ shipped: summary(shipped), unreviewed: summary(unreviewed), faults: unreviewed.diagnostics.errors }));
`,
    );
    const result = node(['own-pack.mjs']);
    assert.equal(result.status, 0, result.stderr);
    const allowed = { decision: 'allow', violations: [] };
    assert.deepEqual(JSON.parse(result.stdout), { shipped: allowed, unreviewed: allowed, faults: [] });
  });

  it('the built type checker, isolate sandbox and generated-pack helpers find the files they need', async () => {
    const built = async <Module>(path: string) =>
      (await import(pathToFileURL(join(installed(), 'dist', 'src', path)).href)) as Module;
    const { GuardTypeChecker } =
      await built<typeof import('../src/compiler/type-checker.ts')>('compiler/type-checker.js');
    const { IsolateSandbox } =
      await built<typeof import('../src/sandbox/isolate-sandbox.ts')>('sandbox/isolate-sandbox.js');
    const { domainHelpers } =
      await built<typeof import('../src/compiler/domain-helpers.ts')>('compiler/domain-helpers.js');
    assert.match(domainHelpers('-05:00').get('guards/lib/dialogue.ts') ?? '', /export function unconfirmed/);
    const code = (body: string) =>
      `import type { PolicyCheck } from 'agentguard';\nexport const check: PolicyCheck<{ n: number }> = (args, context) =>\n  ${body};\n`;
    const good = new Map([
      ['guards/act.ts', code("args.n > context.conversation.userTexts().length ? { message: 'too big' } : undefined")],
    ]);
    assert.deepEqual(new GuardTypeChecker().check(good, ['guards/act.ts']), []);
    const bad = new Map([['guards/act.ts', code('5')]]);
    assert.notDeepEqual(new GuardTypeChecker().check(bad, ['guards/act.ts']), []);
    const outcomes = await new IsolateSandbox().runChecks({
      policy: 'act.size',
      files: good,
      entry: 'guards/act.ts',
      cases: [{ call: { id: 'c1', name: 'act', arguments: { n: 2 } }, messages: [], lookups: [], now: 0 }],
      timeoutMs: 2000,
    });
    assert.deepEqual(
      outcomes.map((outcome) => ('finding' in outcome ? outcome.finding?.message : outcome.message)),
      ['too big'],
    );
  });
});
