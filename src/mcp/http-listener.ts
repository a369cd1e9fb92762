import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { GuardProxy } from './guard-proxy.ts';

/** A running Streamable HTTP endpoint of the proxy. */
export interface ProxyListener {
  /** The endpoint's URL, e.g. `http://127.0.0.1:8931/mcp`. */
  url: string;
  /** Closes every session and stops listening. */
  close(): Promise<void>;
}

/** Largest request body accepted, in bytes. */
const maxBodyBytes = 4 * 1024 * 1024;

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1']);

/** The methods the endpoint answers: POST for messages, GET for a session's event stream, DELETE to end a session. */
const endpointMethods = ['GET', 'POST', 'DELETE'];

function reply(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readBody(request: IncomingMessage): Promise<{ value: unknown } | { status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) {
      return { status: 413, message: `the request body is over the limit of ${maxBodyBytes} bytes` };
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return { value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (error) {
    return { status: 400, message: `the request body is not JSON: ${(error as Error).message}` };
  }
}

/**
 * Serves the proxy over MCP's Streamable HTTP transport at `/mcp`: each `initialize` opens a session with its own
 * server and conversation; later requests name it with the `mcp-session-id` header. On a loopback host, requests
 * whose `Host` header is not that host are refused (DNS rebinding protection).
 *
 * @example
 * ```ts
 * const listener = await listenStreamableHttp(proxy, { host: '127.0.0.1', port: 0 });
 * console.log(listener.url);
 * ```
 */
export async function listenStreamableHttp(
  proxy: GuardProxy,
  options: { host: string; port: number },
): Promise<ProxyListener> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] | undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://proxy').pathname;
    if (path !== '/mcp') {
      return reply(response, 404, `no endpoint at \`${request.method} ${path}\`: the MCP endpoint is \`/mcp\``);
    }
    if (!endpointMethods.includes(request.method ?? '')) {
      return reply(response, 405, `\`/mcp\` answers ${endpointMethods.join(', ')}, not \`${request.method}\``, {
        allow: endpointMethods.join(', '),
      });
    }
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === 'string' && existing === undefined) {
      return reply(response, 404, `no session \`${sessionId}\``);
    }
    if (request.method !== 'POST') {
      if (existing === undefined)
        return reply(response, 400, 'a request outside a session must be a POST of `initialize`');
      return existing.handleRequest(request, response);
    }
    const body = await readBody(request);
    if (!('value' in body)) return reply(response, body.status, body.message);
    if (existing !== undefined) return existing.handleRequest(request, response, body.value);
    if (!isInitializeRequest(body.value)) return reply(response, 400, 'a new session starts with `initialize`');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
      ...(allowedHosts === undefined ? {} : { enableDnsRebindingProtection: true, allowedHosts }),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await proxy.createServer().connect(transport);
    await transport.handleRequest(request, response, body.value);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, `internal error: ${(error as Error).message}`);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  if (loopbackHosts.has(options.host)) {
    allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  }
  return {
    url: `http://${hostInUrl}:${port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
