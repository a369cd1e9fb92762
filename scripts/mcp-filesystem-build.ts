/**
 * The build of the mcp-filesystem pack through `agentguard compile build`: its inputs (the policy document, the
 * filesystem server's real `tools/list`, the pack's helpers) and the one argument list that recording and rebuilding
 * share.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The committed pack. */
export const packDir = fileURLToPath(new URL('../packs/mcp-filesystem/', import.meta.url));
/** The recording of the build's model steps: scripted answers, the pack's reviewed spec, code and test cases. */
export const recordingFile = fileURLToPath(new URL('../packs/mcp-filesystem.recording.json', import.meta.url));
/** The filesystem server's `tools/list` result, with its annotations: the tool specs of the build. */
export const toolsListFile = fileURLToPath(new URL('../packs/mcp-filesystem.mcp-tools.json', import.meta.url));
/** The filesystem server's entry point. */
export const filesystemServer = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
);

/** The options of `agentguard compile build` for this pack, writing to `out` (the model aside). */
export function buildOptions(out: string) {
  return {
    policy: join(packDir, 'policy.md'),
    tools: toolsListFile,
    helpers: join(packDir, 'guards', 'lib'),
    domain: 'mcp-filesystem',
    guardReadOnly: 'read_text_file,read_file,read_media_file,read_multiple_files',
    rounds: '2',
    votes: '3',
    maxRepairs: '0',
    maxCalls: '500',
    maxTokens: '5000000',
    timeout: '120',
    out,
  };
}

/** Asks the installed filesystem server for its tools (started on an empty temporary folder, then stopped). */
export async function listFilesystemTools(): Promise<unknown> {
  const folder = await mkdtemp(join(tmpdir(), 'mcp-filesystem-tools-'));
  const client = new Client({ name: 'agentguard-pack-build', version: '0.1.0' });
  try {
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [filesystemServer, folder], stderr: 'ignore' }),
    );
    return await client.listTools();
  } finally {
    await client.close();
    await rm(folder, { recursive: true, force: true });
  }
}
