/**
 * What the MCP guard proxy adds to a tool call: the SDK's client calls the filesystem server directly and through
 * `agentguard mcp` with the mcp-filesystem pack (both over stdio, each on its own temporary folder), side by side in
 * one run, after a warm-up. Kinds: a read of an existing file (one policy, four lookups to the server: without
 * `--same-disk` the secrets files are searched), a write of a new file (three policies, four lookups), and a refused
 * `.env` write (the server is never called). Run: `npm run bench:mcp` (BENCH_CALLS sets the
 * calls per kind, default 200).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { filesystemServer, packDir } from '../scripts/mcp-filesystem-build.ts';
import { cli } from '../src/mcp/test-proxy.ts';
import { quantile } from '../src/replay/report.ts';

/** Milliseconds per call at the median and p99. */
export interface CallFigures {
  p50: number;
  p99: number;
}

/** Figures per kind of call: direct to the server and through the proxy (refused calls have no direct figure). */
export interface McpProxyFigures {
  calls: number;
  read: { direct: CallFigures; proxied: CallFigures };
  write: { direct: CallFigures; proxied: CallFigures };
  refused: { proxied: CallFigures };
}

async function connect(command: string[], folder: string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const [program = process.execPath, ...args] = command;
  await client.connect(new StdioClientTransport({ command: program, args: [...args, folder], stderr: 'ignore' }));
  return client;
}

async function time(
  client: Client,
  calls: number,
  name: string,
  args: (index: number) => Record<string, unknown>,
  expectError: boolean,
) {
  const times: number[] = [];
  for (let index = 0; index < calls; index++) {
    const started = performance.now();
    const result = (await client.callTool({ name, arguments: args(index) })) as CallToolResult;
    times.push(performance.now() - started);
    if ((result.isError === true) !== expectError) {
      throw new Error(`\`${name}\` ${expectError ? 'was not refused' : 'failed'}: ${JSON.stringify(result.content)}`);
    }
  }
  times.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  return { p50: round(quantile(times, 0.5)), p99: round(quantile(times, 0.99)) };
}

/** Runs `calls` calls of each kind directly and through the proxy, after a warm-up of a tenth as many. */
export async function runMcpProxyBench(calls: number): Promise<McpProxyFigures> {
  const folders = [
    await mkdtemp(join(tmpdir(), 'bench-mcp-direct-')),
    await mkdtemp(join(tmpdir(), 'bench-mcp-proxy-')),
  ];
  const direct = await connect([process.execPath, filesystemServer], folders[0] ?? '');
  const proxied = await connect(
    [process.execPath, cli, 'mcp', '--pack', packDir, '--', process.execPath, filesystemServer],
    folders[1] ?? '',
  );
  try {
    for (const folder of folders) await writeFile(join(folder, 'notes.txt'), 'notes\n');
    const read = () => ({ path: 'notes.txt' });
    const warm = Math.max(1, Math.round(calls / 10));
    for (const [client, prefix] of [
      [direct, 'warm'],
      [proxied, 'warm'],
    ] as const) {
      await time(client, warm, 'read_text_file', read, false);
      await time(client, warm, 'write_file', (index) => ({ path: `${prefix}-${index}.txt`, content: 'x\n' }), false);
    }
    const newFile = (index: number) => ({ path: `new-${index}.txt`, content: 'a small note\n' });
    return {
      calls,
      read: {
        direct: await time(direct, calls, 'read_text_file', read, false),
        proxied: await time(proxied, calls, 'read_text_file', read, false),
      },
      write: {
        direct: await time(direct, calls, 'write_file', newFile, false),
        proxied: await time(proxied, calls, 'write_file', newFile, false),
      },
      refused: {
        proxied: await time(proxied, calls, 'write_file', () => ({ path: '.env', content: 'TOKEN=1\n' }), true),
      },
    };
  } finally {
    await Promise.all([direct.close(), proxied.close()]);
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  }
}

/** The figures as a table. */
export function formatMcpProxyBench(result: McpProxyFigures): string {
  const cpu = cpus();
  const cell = (figures: CallFigures | undefined) =>
    figures === undefined
      ? `${'-'.padStart(9)}${'-'.padStart(9)}`
      : `${String(figures.p50).padStart(9)}${String(figures.p99).padStart(9)}`;
  const row = (name: string, figures: { direct?: CallFigures; proxied: CallFigures }) =>
    `${name.padEnd(46)}${cell(figures.direct)}${cell(figures.proxied)}`;
  return [
    `MCP guard proxy, ms per call over stdio: ${result.calls} calls per kind, filesystem server direct and through agentguard mcp`,
    `machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, Node ${process.version}`,
    '',
    `${'call'.padEnd(46)}${'direct'.padStart(9)}${'p99'.padStart(9)}${'proxied'.padStart(9)}${'p99'.padStart(9)}`,
    row('read_text_file (1 policy, 4 lookups)', result.read),
    row('write_file, new file (3 policies, 4 lookups)', result.write),
    row('write_file .env (refused by the proxy)', result.refused),
  ].join('\n');
}

if (import.meta.main) {
  const calls = Number(process.env['BENCH_CALLS'] ?? 200);
  process.stdout.write(`${formatMcpProxyBench(await runMcpProxyBench(calls))}\n`);
}
