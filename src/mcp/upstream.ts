import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AgentGuardError } from '../errors.ts';

/** The MCP server the proxy guards: a command it starts and talks to over stdio, or a Streamable HTTP endpoint. */
export type UpstreamTarget = { command: string; args: readonly string[] } | { url: string };

/** How long connecting to the upstream (start and `initialize`) may take, in milliseconds, unless told otherwise. */
const defaultConnectTimeoutMs = 30_000;

/** Names the upstream in messages: its command line or its URL. */
export function describeUpstream(target: UpstreamTarget): string {
  return 'url' in target ? target.url : [target.command, ...target.args].join(' ');
}

function transportFor(target: UpstreamTarget): Transport {
  if ('url' in target) {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      throw new AgentGuardError('invalid_input', `the upstream URL \`${target.url}\` is not a URL`);
    }
    return new StreamableHTTPClientTransport(url);
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  // The upstream's diagnostics go to the proxy's stderr, which is never part of the MCP stream.
  return new StdioClientTransport({ command: target.command, args: [...target.args], env, stderr: 'inherit' });
}

/**
 * Connects an MCP client to the upstream server: starts the command (stdio) or opens the URL (Streamable HTTP) and
 * completes `initialize`. The client declares no capabilities of its own, so the upstream never asks the proxy for
 * roots, sampling or elicitation. Fails with an `upstream_error` naming the upstream when it cannot start, answer, or
 * does so too slowly.
 *
 * @example
 * ```ts
 * const upstream = await connectUpstream({ command: 'npx', args: ['@modelcontextprotocol/server-filesystem', '.'] });
 * ```
 */
export async function connectUpstream(target: UpstreamTarget, timeoutMs = defaultConnectTimeoutMs): Promise<Client> {
  const client = new Client({ name: 'agentguard-mcp-proxy', version: '0.1.0' });
  const transport = transportFor(target);
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    const message = `${error instanceof Error ? error.message : String(error)}${cause}`;
    const reason = closed && /connection closed/i.test(message) ? 'it closed the connection' : message;
    await client.close().catch(() => {});
    throw new AgentGuardError(
      'upstream_error',
      `could not connect to the upstream MCP server \`${describeUpstream(target)}\`: ${reason}`,
      { cause: error },
    );
  }
  return client;
}
