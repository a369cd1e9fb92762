import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { packDir } from '../../scripts/mcp-filesystem-build.ts';
import {
  call,
  exitOf,
  listeningProxy,
  overFilesystem,
  overHttp,
  testClient,
  textOf,
  throughProxy,
} from './test-proxy.ts';

describe('agentguard mcp --listen: Streamable HTTP on 127.0.0.1', { timeout: 120_000 }, () => {
  let folder: string;
  let proxy: Awaited<ReturnType<typeof listeningProxy>>;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentguard-mcp-http-'));
    proxy = await listeningProxy(overFilesystem(folder));
  });
  after(async () => {
    proxy.child.kill('SIGTERM');
    assert.equal(await exitOf(proxy.child, 30_000), 0);
    await rm(folder, { recursive: true, force: true });
  });

  it('serves at a loopback URL on the port the system chose', () => {
    assert.equal(proxy.url.hostname, '127.0.0.1');
    assert.notEqual(proxy.url.port, '0');
    assert.equal(proxy.url.pathname, '/mcp');
  });

  it('refuses `.env`, lets `notes.txt` through and asks before overwriting it, per session', async () => {
    const { client, elicitations } = testClient(() => ({ action: 'accept', content: { approve: true } }));
    await overHttp(client, proxy.url);
    try {
      const refused = await call(client, 'write_file', { path: '.env', content: 'TOKEN=1\n' });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /write_file\.no_secrets_files/);
      await assert.rejects(readFile(join(folder, '.env')));

      const written = await call(client, 'write_file', { path: 'notes.txt', content: 'one\n' });
      assert.notEqual(written.isError, true, textOf(written));
      const replaced = await call(client, 'write_file', { path: 'notes.txt', content: 'two\n' });
      assert.notEqual(replaced.isError, true, textOf(replaced));
      assert.equal(elicitations.length, 1);
      assert.equal(await readFile(join(folder, 'notes.txt'), 'utf8'), 'two\n');
    } finally {
      await client.close();
    }
  });

  it('a second session without elicitation is refused on its own terms', async () => {
    const { client } = testClient();
    await overHttp(client, proxy.url);
    try {
      const result = await call(client, 'write_file', { path: 'notes.txt', content: 'three\n' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /does not support elicitation/);
      assert.equal(await readFile(join(folder, 'notes.txt'), 'utf8'), 'two\n');
    } finally {
      await client.close();
    }
  });

  it('answers 404 off /mcp naming the endpoint, 405 for other methods, and 400 for a first request that is not initialize', async () => {
    const other = await fetch(new URL('/other', proxy.url));
    assert.equal(other.status, 404);
    assert.match(await other.text(), /no endpoint at `GET \/other`: the MCP endpoint is `\/mcp`/);
    const put = await fetch(proxy.url, { method: 'PUT', body: '{}' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST, DELETE');
    const response = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(response.status, 400);
    assert.match(await response.text(), /starts with `initialize`/);
  });
});

/** An upstream served over Streamable HTTP by the SDK: a read-only tool, a destructive one, a resource, a prompt. */
async function startUpstream() {
  const calls = { echo: 0, wipe: 0 };
  const serverFor = () => {
    const server = new McpServer({ name: 'notes-upstream', version: '1.2.3' });
    server.registerTool(
      'echo',
      { description: 'Echoes its text.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
      ({ text }) => {
        calls.echo++;
        return { content: [{ type: 'text', text }] };
      },
    );
    server.registerTool(
      'wipe',
      { description: 'Deletes every note.', inputSchema: {}, annotations: { destructiveHint: true } },
      () => {
        calls.wipe++;
        return { content: [{ type: 'text', text: 'wiped' }] };
      },
    );
    server.registerResource('readme', 'note://readme', { mimeType: 'text/plain' }, (uri) => ({
      contents: [{ uri: uri.href, text: 'the readme' }],
    }));
    server.registerPrompt('summarize', { argsSchema: { topic: z.string() } }, ({ topic }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic}.` } }],
    }));
    return server;
  };
  const http = createServer(async (request, response) => {
    const server = serverFor();
    const transport = new StreamableHTTPServerTransport({});
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    calls,
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

describe('agentguard mcp --upstream <url>', { timeout: 120_000 }, () => {
  it('re-exposes a Streamable HTTP upstream; tools no pack knows are refused; resources and prompts pass', async () => {
    const upstream = await startUpstream();
    const proxy = await throughProxy(['--pack', packDir, '--upstream', upstream.url]);
    try {
      assert.match(proxy.client.getServerVersion()?.name ?? '', /notes-upstream/);
      const { tools } = await proxy.client.listTools();
      assert.deepEqual(
        tools.map((tool) => [tool.name, tool.annotations]),
        [
          ['echo', { readOnlyHint: true }],
          ['wipe', { destructiveHint: true }],
        ],
      );
      const refused = await call(proxy.client, 'wipe', {});
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /`runtime\.unknown_tool`\): no guard pack knows the tool `wipe`/);
      assert.equal(upstream.calls.wipe, 0);

      const resource = await proxy.client.readResource({ uri: 'note://readme' });
      assert.deepEqual(resource.contents, [{ uri: 'note://readme', text: 'the readme' }]);
      const prompt = await proxy.client.getPrompt({ name: 'summarize', arguments: { topic: 'the notes' } });
      assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: 'Summarize the notes.' });
    } finally {
      await proxy.client.close();
      await upstream.close();
    }
  });
});
