/**
 * Regenerates the mcp-filesystem pack with `agentguard compile build --replay` from the committed recording and
 * compares the result with the committed pack: `npm run rebuild:mcp-filesystem -- --out <dir>`. Exits 1 when they
 * differ.
 */
import { parseArgs } from 'node:util';
import { rebuildFromRecording } from './compile-build.ts';
import { buildOptions, packDir, recordingFile } from './mcp-filesystem-build.ts';

/**
 * Runs the build from the recording into `out`, with any further build options; returns the paths where it differs
 * from the committed pack.
 */
export async function rebuildMcpFilesystem(out: string, options: readonly string[] = []): Promise<string[]> {
  return rebuildFromRecording(buildOptions(out), recordingFile, packDir, options);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (values.out === undefined) throw new Error('usage: npm run rebuild:mcp-filesystem -- --out <dir>');
  const differences = await rebuildMcpFilesystem(values.out);
  if (differences.length === 0) console.log(`rebuilt into ${values.out}: identical to packs/mcp-filesystem`);
  else console.log(`differs from packs/mcp-filesystem in:\n${differences.map((path) => `  ${path}`).join('\n')}`);
  process.exitCode = differences.length === 0 ? 0 : 1;
}
