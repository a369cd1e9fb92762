import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ElicitRequestSchema,
  type ElicitResult,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { packDir } from '../../scripts/mcp-filesystem-build.ts';
import { defaultAskTimeoutMs } from './ask-timeout.ts';
import { GuardProxy } from './index.ts';
import { call, testClient, textOf } from './test-proxy.ts';

/** An SDK server, the proxy's client to it, the proxy, and a test client to the proxy, all in memory. */
async function inMemory(answer: 'accept' | 'decline') {
  const upstream = new McpServer({ name: 'notes', version: '2.0.0' });
  let erased = 0;
  upstream.registerTool('erase', { description: 'Erases a note.', inputSchema: { id: z.string() } }, () => {
    erased++;
    return { content: [{ type: 'text', text: 'erased' }] };
  });
  const [upstreamSide, proxySide] = InMemoryTransport.createLinkedPair();
  await upstream.connect(upstreamSide);
  const upstreamClient = new Client({ name: 'proxy', version: '1.0.0' });
  await upstreamClient.connect(proxySide);
  const proxy = await GuardProxy.start(upstreamClient, { packs: [packDir], runtime: { unknownTool: 'ask' } });
  const { client, elicitations } = testClient(() =>
    answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await proxy.createServer().connect(serverSide);
  await client.connect(clientSide);
  return { upstream, proxy, client, elicitations, erased: () => erased };
}

describe('tools no pack knows', () => {
  it("unknownReadOnlyTool allow lets the server's read-only tools through while its other tools stay denied", async () => {
    const upstream = new McpServer({ name: 'notes', version: '2.0.0' });
    const ran: string[] = [];
    const tool = (name: string, readOnlyHint: boolean) =>
      upstream.registerTool(name, { description: name, annotations: { readOnlyHint } }, () => {
        ran.push(name);
        return { content: [{ type: 'text', text: 'done' }] };
      });
    tool('list_notes', true);
    tool('erase_notes', false);
    const [upstreamSide, proxySide] = InMemoryTransport.createLinkedPair();
    await upstream.connect(upstreamSide);
    const upstreamClient = new Client({ name: 'proxy', version: '1.0.0' });
    await upstreamClient.connect(proxySide);
    const proxy = await GuardProxy.start(upstreamClient, {
      packs: [packDir],
      runtime: { unknownTool: 'deny', unknownReadOnlyTool: 'allow' },
    });
    const { client } = testClient();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await proxy.createServer().connect(serverSide);
    await client.connect(clientSide);
    try {
      assert.notEqual((await call(client, 'list_notes', {})).isError, true);
      const erase = await call(client, 'erase_notes', {});
      assert.equal(erase.isError, true);
      assert.match(textOf(erase), /no guard pack knows the tool `erase_notes`/);
      assert.deepEqual(ran, ['list_notes']);
    } finally {
      await proxy.close();
    }
  });
});

describe('the MCP ask timeout', () => {
  it("defaults under the SDK client's own wait for a call, so the agent gets the proxy's answer", () => {
    assert.ok(defaultAskTimeoutMs < DEFAULT_REQUEST_TIMEOUT_MSEC);
  });
  it('a client that cancels the call closes the open elicitation too; the call never runs', async () => {
    const setup = await inMemory('accept');
    try {
      let asked: () => void = () => {};
      const elicited = new Promise<void>((resolve) => {
        asked = resolve;
      });
      const closed = new Promise<void>((resolve) =>
        setup.client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
          // The person never answers; the elicitation ends only when the proxy withdraws it.
          extra.signal.addEventListener('abort', () => resolve());
          asked();
          return new Promise<ElicitResult>(() => {});
        }),
      );
      const cancel = new AbortController();
      const pending = setup.client.callTool({ name: 'erase', arguments: { id: 'n1' } }, undefined, {
        signal: cancel.signal,
      });
      await elicited;
      cancel.abort('the user stopped the agent');
      await assert.rejects(pending);
      await closed;
      assert.equal(setup.erased(), 0);
    } finally {
      await setup.proxy.close();
    }
  });
});

describe('GuardProxy in process, over a connected SDK client', () => {
  it('unknownTool ask: the person approves, the call runs once; declines, it never runs', async () => {
    for (const answer of ['accept', 'decline'] as const) {
      const setup = await inMemory(answer);
      try {
        assert.equal(setup.client.getServerVersion()?.name, 'agentguard (notes)');
        const result = await call(setup.client, 'erase', { id: 'n1' });
        assert.match(
          setup.elicitations[0]?.message ?? '',
          /`runtime\.unknown_tool`\): no guard pack knows the tool `erase`/,
        );
        assert.equal(setup.erased(), answer === 'accept' ? 1 : 0);
        assert.equal(result.isError === true, answer === 'decline', textOf(result));
      } finally {
        await setup.proxy.close();
      }
    }
  });

  it("relays the upstream's tool list changes, and close() settles upstreamClosed", async () => {
    const setup = await inMemory('accept');
    const changed = new Promise<void>((resolve) =>
      setup.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    setup.upstream.registerTool('archive', { description: 'Archives a note.' }, () => ({ content: [] }));
    await changed;
    assert.deepEqual(
      (await setup.client.listTools()).tools.map((tool) => tool.name),
      ['erase', 'archive'],
    );
    await setup.proxy.close();
    assert.match(await setup.proxy.upstreamClosed, /shutting down/);
  });
});
