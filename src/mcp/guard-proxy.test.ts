import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { listFilesystemTools, packDir } from '../../scripts/mcp-filesystem-build.ts';
import { call, cli, exitOf, overFilesystem, type ProxyClient, textOf, throughProxy } from './test-proxy.ts';

describe('agentguard mcp in front of the filesystem server (stdio)', { timeout: 120_000 }, () => {
  let folder: string;
  let proxy: ProxyClient;
  /** What the person answers to the next elicitation. */
  let answer: ElicitResult = { action: 'accept', content: { approve: true } };

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentguard-mcp-'));
    proxy = await throughProxy(overFilesystem(folder), () => answer);
  });
  after(async () => {
    await proxy.client.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("re-exposes the server's tools with their names, schemas and annotations", async () => {
    const direct = (await listFilesystemTools()) as { tools: unknown[] };
    const proxied = await proxy.client.listTools();
    assert.deepEqual(proxied.tools, direct.tools);
    assert.equal(proxied.tools.find((tool) => tool.name === 'move_file')?.annotations?.destructiveHint, true);
  });

  it('refuses writing `.env` with the feedback; the call never reaches the server and the disk is unchanged', async () => {
    const before = await readdir(folder);
    const result = await call(proxy.client, 'write_file', { path: '.env', content: 'API_KEY=sk-live-123\n' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /The call to `write_file` was blocked/);
    assert.match(textOf(result), /`write_file\.no_secrets_files`\): `\.env` is an environment file/);
    assert.match(textOf(result), /Policy: "The agent never writes or edits secrets files/);
    assert.doesNotMatch(textOf(result), /could not be checked|inside_project_folder|approval_to_overwrite/);
    assert.deepEqual(await readdir(folder), before);
  });

  it('refuses a private key and a certificate as well', async () => {
    for (const path of ['.ssh/id_rsa', 'server.pem']) {
      const result = await call(proxy.client, 'write_file', { path, content: '-----BEGIN-----\n' });
      assert.equal(result.isError, true, path);
      assert.match(textOf(result), /no_secrets_files/);
    }
    assert.deepEqual((await readdir(folder)).sort(), []);
  });

  it('lets an ordinary small write through: `notes.txt` lands on disk', async () => {
    const result = await call(proxy.client, 'write_file', { path: 'notes.txt', content: 'buy milk\n' });
    assert.notEqual(result.isError, true, textOf(result));
    assert.equal(await readFile(join(folder, 'notes.txt'), 'utf8'), 'buy milk\n');
    const read = await call(proxy.client, 'read_text_file', { path: 'notes.txt' });
    assert.equal(textOf(read), 'buy milk\n');
  });

  it('refuses moving a file out of the allowed folder; the file stays', async () => {
    const outside = join(tmpdir(), `agentguard-mcp-outside-${process.pid}.txt`);
    const result = await call(proxy.client, 'move_file', { source: 'notes.txt', destination: outside });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /`move_file\.inside_project_folder`\): `[^`]+` is outside the project folder/);
    assert.equal(await readFile(join(folder, 'notes.txt'), 'utf8'), 'buy milk\n');
    await assert.rejects(readFile(outside));
  });

  it('asks the person before overwriting an existing file; accepted, the write lands', async () => {
    const result = await call(proxy.client, 'write_file', { path: 'notes.txt', content: 'buy oat milk\n' });
    assert.notEqual(result.isError, true, textOf(result));
    assert.equal(await readFile(join(folder, 'notes.txt'), 'utf8'), 'buy oat milk\n');
    const asked = proxy.elicitations.at(-1);
    assert.match(asked?.message ?? '', /`write_file\.approval_to_overwrite`\): `notes\.txt` already exists/);
    assert.match(asked?.message ?? '', /"content": "buy oat milk\\n"/);
    assert.deepEqual(Object.keys(asked?.requestedSchema.properties ?? {}), ['approve']);
  });

  for (const [label, given, reason] of [
    ['declined', { action: 'decline' }, /The person declined the call\./],
    ['accepted without approving', { action: 'accept', content: { approve: false } }, /The person declined/],
    ['cancelled', { action: 'cancel' }, /The person dismissed the request\./],
  ] as const) {
    it(`asks before overwriting; ${label}: refused with the feedback, the file unchanged`, async () => {
      answer = given;
      const asked = proxy.elicitations.length;
      const result = await call(proxy.client, 'write_file', { path: 'notes.txt', content: 'replaced\n' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /needs a person's approval/);
      assert.match(textOf(result), reason);
      assert.equal(proxy.elicitations.length, asked + 1);
      assert.equal(await readFile(join(folder, 'notes.txt'), 'utf8'), 'buy oat milk\n');
    });
  }
});

describe('approval with a client that cannot elicit', { timeout: 120_000 }, () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentguard-mcp-'));
    await writeFile(join(folder, 'notes.txt'), 'original\n');
  });
  after(() => rm(folder, { recursive: true, force: true }));

  it('a client without elicitation: refused, saying the client cannot ask a person', async () => {
    const proxy = await throughProxy(overFilesystem(folder));
    try {
      const result = await call(proxy.client, 'write_file', { path: 'notes.txt', content: 'replaced\n' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /`write_file\.approval_to_overwrite`/);
      assert.match(textOf(result), /does not support elicitation/);
      assert.equal(await readFile(join(folder, 'notes.txt'), 'utf8'), 'original\n');
    } finally {
      await proxy.client.close();
    }
  });
});

/** A stdio MCP server in a few lines of JSON-RPC: one tool, `crash`, that kills the server while it runs. */
const crashingServer = `
const reply = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf('\\n'); end >= 0; end = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.method === 'initialize') reply(message.id, { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'crashing', version: '1.0.0' } });
    if (message.method === 'tools/list') reply(message.id, { tools: [{ name: 'crash', inputSchema: { type: 'object' } }] });
    if (message.method === 'tools/call') process.exit(7);
  }
});
`;

describe('when the upstream fails', { timeout: 120_000 }, () => {
  it('a crash during a call: the client gets a clear error and the proxy exits 1, naming the upstream', async () => {
    const proxy = await throughProxy([
      '--pack',
      packDir,
      '--unknown-tool',
      'allow',
      '--',
      process.execPath,
      '-e',
      crashingServer,
    ]);
    const started = Date.now();
    const result = await call(proxy.client, 'crash', {});
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /the upstream MCP server `[\s\S]+` closed the connection while `crash` ran; whether it took effect is unknown/,
    );
    assert.ok(Date.now() - started < 10_000);
    const again = await call(proxy.client, 'crash', {}).catch((error: Error) => error);
    assert.ok(again instanceof Error || again.isError === true);
    for (let waited = 0; !/stopping/.test(proxy.stderr()) && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(
      proxy.stderr(),
      /agentguard mcp: error: the upstream MCP server `[\s\S]+` closed the connection; stopping/,
    );
    await proxy.client.close();
  });

  it('an upstream that never starts: exit 1 with the reason, bounded', async () => {
    const child = spawn(
      process.execPath,
      [cli, 'mcp', '--pack', packDir, '--', process.execPath, '-e', 'process.exit(3)'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    assert.equal(await exitOf(child, 30_000), 1);
    assert.match(stderr, /error: could not connect to the upstream MCP server `.+`/);
  });

  it('the client going away stops the proxy and its upstream', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentguard-mcp-'));
    const child = spawn(process.execPath, [cli, 'mcp', ...overFilesystem(folder)], { stdio: ['pipe', 'pipe', 'pipe'] });
    await new Promise((resolve) => child.stderr.once('data', resolve));
    child.stdin.end();
    assert.equal(await exitOf(child, 30_000), 0);
    await rm(folder, { recursive: true, force: true });
  });
});

describe('agentguard mcp arguments', { timeout: 60_000 }, () => {
  const run = async (args: readonly string[]) => {
    const child = spawn(process.execPath, [cli, 'mcp', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    return { code: await exitOf(child, 30_000), stderr };
  };

  it('names the mistake: no upstream, or two', async () => {
    const none = await run(['--pack', packDir]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no upstream: give `--upstream <url>` or `-- <command> \[args…\]`/);
    const both = await run(['--pack', packDir, '--upstream', 'http://127.0.0.1:9/mcp', '--', 'server']);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /either as `--upstream <url>` or as `-- <command>`, not both/);
  });

  it('a pack that does not load fails before the upstream starts', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentguard-mcp-'));
    const marker = join(folder, 'started');
    const started = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`;
    const result = await run(['--pack', join(folder, 'no-pack'), '--', process.execPath, '-e', started]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no-pack[/\\]manifest\.json`: \$: cannot read/);
    await assert.rejects(readFile(marker));
    await rm(folder, { recursive: true, force: true });
  });

  it('an upstream URL that does not answer names the URL and the reason', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/mcp`;
    await new Promise((resolve) => closed.close(resolve));
    const result = await run(['--pack', packDir, '--upstream', url]);
    assert.equal(result.code, 1);
    assert.ok(result.stderr.includes(`could not connect to the upstream MCP server \`${url}\`: fetch failed`));
    assert.match(result.stderr, /ECONNREFUSED/);
  });
});

describe('agentguard mcp --audit', { timeout: 120_000 }, () => {
  /**
   * Overwrites `notes.txt` once per answer through a proxy with `--audit` (and `extra` arguments), the person
   * answering each elicitation in turn (no elicitation capability without answers), and reads back the ask outcomes
   * and the file.
   */
  async function askOutcomes(answers: (ElicitResult | 'never')[] | undefined, extra: readonly string[] = []) {
    const work = await mkdtemp(join(tmpdir(), 'agentguard-mcp-audit-'));
    const folder = join(work, 'project');
    const log = join(work, 'audit.db');
    await mkdir(folder);
    await writeFile(join(folder, 'notes.txt'), 'original\n');
    const queue = [...(answers ?? [])];
    const calls = Math.max(queue.length, 1);
    try {
      const answer = () => {
        const next = queue.shift() ?? { action: 'decline' };
        // An answer that never comes: the proxy's time for the person runs out.
        return next === 'never' ? (new Promise(() => {}) as unknown as ElicitResult) : next;
      };
      const proxy = await throughProxy(
        [...extra, '--audit', log, ...overFilesystem(folder)],
        answers === undefined ? undefined : answer,
      );
      for (let index = 1; index <= calls; index++) {
        await call(proxy.client, 'write_file', { path: 'notes.txt', content: `version ${index}\n` });
      }
      await proxy.client.close();
      const outcomes = () =>
        spawnSync(process.execPath, [cli, 'audit', 'export', log, '--format', 'jsonl'], { encoding: 'utf8' })
          .stdout.trim()
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => (JSON.parse(line) as { record: { kind?: string; outcome?: unknown; ask?: unknown } }).record)
          .filter((record) => record.kind === 'ask_outcome');
      let records = outcomes();
      for (let tries = 0; records.length < calls && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        records = outcomes();
      }
      assert.ok(
        records.every((record) => record.ask !== null),
        'each outcome links to its ask',
      );
      return {
        outcomes: records.map((record) => record.outcome),
        file: await readFile(join(folder, 'notes.txt'), 'utf8'),
      };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  it("records what became of each ask: the person's answer and whether the call then ran", async () => {
    const { outcomes, file } = await askOutcomes([
      { action: 'accept', content: { approve: true } },
      { action: 'decline' },
      { action: 'cancel' },
    ]);
    assert.deepEqual(outcomes, [
      { answer: 'approved', ran: true },
      { answer: 'declined', ran: false },
      { answer: 'cancelled', ran: false },
    ]);
    assert.equal(file, 'version 1\n');
  });

  it('records an ask left unanswered past `--ask-timeout`, and one a client cannot put to a person', async () => {
    const timedOut = await askOutcomes(['never'], ['--ask-timeout', '1']);
    assert.deepEqual(timedOut.outcomes, [{ answer: 'timed_out', ran: false }]);
    assert.equal(timedOut.file, 'original\n');
    const unavailable = await askOutcomes(undefined);
    assert.deepEqual(unavailable.outcomes, [{ answer: 'unavailable', ran: false }]);
    assert.equal(unavailable.file, 'original\n');
  });

  it('appends the verdict of every call it decides, refused ones included, in a chain that verifies', async () => {
    const work = await mkdtemp(join(tmpdir(), 'agentguard-mcp-audit-'));
    const folder = join(work, 'project');
    const log = join(work, 'audit.db');
    await mkdir(folder);
    try {
      const proxy = await throughProxy(['--audit', log, ...overFilesystem(folder)]);
      await call(proxy.client, 'write_file', { path: '.env', content: 'API_KEY=1\n' });
      await call(proxy.client, 'write_file', { path: 'notes.txt', content: 'buy milk\n' });
      await proxy.client.close();
      // The proxy closes its log as it exits: wait for both records, within a bound.
      const runCli = (args: readonly string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
      const exported = () =>
        runCli(['audit', 'export', log, '--format', 'jsonl'])
          .stdout.trim()
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as { record: { call: { name: string }; verdict: { decision: string } } });
      let records = exported();
      for (let tries = 0; records.length < 2 && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        records = exported();
      }
      assert.deepEqual(
        records.map(({ record }) => `${record.call.name} ${record.verdict.decision}`),
        ['write_file deny', 'write_file allow'],
      );
      const verified = runCli(['audit', 'verify', log, '--json']);
      assert.equal(verified.status, 0, verified.stderr);
      assert.deepEqual(JSON.parse(verified.stdout).records, 2);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
