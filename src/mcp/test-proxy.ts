/**
 * Test helpers for the MCP proxy's tests: `agentguard mcp` started as a child process and driven by the SDK's own
 * client, over stdio or Streamable HTTP. Not part of the public API.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  type ElicitRequestFormParams,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { filesystemServer, packDir } from '../../scripts/mcp-filesystem-build.ts';
import { moduleUrl } from '../package-root.ts';

/** The arguments of `agentguard mcp` in front of the filesystem server on `folder`, guarded by its pack. */
export const overFilesystem = (folder: string) => ['--pack', packDir, '--', process.execPath, filesystemServer, folder];

/** The command line's entry point. */
export const cli = fileURLToPath(moduleUrl(import.meta.url, '../cli/main'));

/** A connected client of the proxy, the elicitations it answered, and the proxy's stderr so far. */
export interface ProxyClient {
  client: Client;
  stderr: () => string;
  elicitations: ElicitRequestFormParams[];
}

/** A client that answers elicitations with `answer` (declaring the capability), or one without the capability. */
export function testClient(answer?: (params: ElicitRequestFormParams) => ElicitResult): {
  client: Client;
  elicitations: ElicitRequestFormParams[];
} {
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    { capabilities: answer === undefined ? {} : { elicitation: { form: {} } } },
  );
  const elicitations: ElicitRequestFormParams[] = [];
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      const params = request.params as ElicitRequestFormParams;
      elicitations.push(params);
      return answer(params);
    });
  }
  return { client, elicitations };
}

/** Starts `agentguard mcp <proxyArgs>` served over stdio and connects a test client to it. */
export async function throughProxy(
  proxyArgs: readonly string[],
  answer?: (params: ElicitRequestFormParams) => ElicitResult,
): Promise<ProxyClient> {
  const { client, elicitations } = testClient(answer);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', ...proxyArgs],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await client.connect(transport);
  return { client, stderr: () => stderr, elicitations };
}

/** Starts `agentguard mcp <proxyArgs> --listen 0` and waits for the URL it prints. */
export async function listeningProxy(proxyArgs: readonly string[]): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [cli, 'mcp', '--listen', '0', ...proxyArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL after 30 s; stderr: ${stderr}`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /listening on (\S+)/.exec(stderr)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(new URL(found));
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}; stderr: ${stderr}`)));
  });
  return { child, url };
}

/** Connects a client to a Streamable HTTP endpoint. */
export async function overHttp(client: Client, url: URL): Promise<Transport> {
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return transport;
}

/** Waits for a child process to exit, failing after `ms`. */
export const exitOf = (child: ChildProcess, ms: number) =>
  new Promise<number | null>((resolve, reject) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });

/** The text blocks of a tool result, joined. */
export const textOf = (result: unknown) =>
  (result as CallToolResult).content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');

/** Calls a tool. */
export const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
