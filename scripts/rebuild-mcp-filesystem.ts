/**
 * Regenerates the mcp-filesystem pack with `agentguard compile build --replay` from the committed recording and
 * compares the result with the committed pack: `npm run rebuild:mcp-filesystem -- --out <dir>`. Exits 1 when they
 * differ.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { buildArguments, packDir, recordingFile } from './mcp-filesystem-build.ts';
import { packDifferences } from './rebuild-tau-airline.ts';

const cli = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

/**
 * Runs the build from the recording into `out`, with any further build options; returns the paths where it differs
 * from the committed pack.
 */
export async function rebuildMcpFilesystem(out: string, options: readonly string[] = []): Promise<string[]> {
  await promisify(execFile)(process.execPath, [cli, ...buildArguments(out), '--replay', recordingFile, ...options], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return packDifferences(packDir, out);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (values.out === undefined) throw new Error('usage: npm run rebuild:mcp-filesystem -- --out <dir>');
  const differences = await rebuildMcpFilesystem(values.out);
  if (differences.length === 0) console.log(`rebuilt into ${values.out}: identical to packs/mcp-filesystem`);
  else console.log(`differs from packs/mcp-filesystem in:\n${differences.map((path) => `  ${path}`).join('\n')}`);
  process.exitCode = differences.length === 0 ? 0 : 1;
}
