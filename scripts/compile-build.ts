/**
 * What the scripts that build a shipped pack share: the command line of `agentguard compile build` for a pack's
 * options, and a rebuild from a recording compared with the committed pack.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packDifferences } from './rebuild-tau-airline.ts';

const cli = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

/** `compile build` with the given options (as `compileBuild` takes them) as the command line's arguments. */
export function compileBuildArguments(options: Readonly<Record<string, string>>): string[] {
  return [
    'compile',
    'build',
    ...Object.entries(options).flatMap(([name, value]) => [
      `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
      value,
    ]),
  ];
}

/**
 * Runs `agentguard compile build --replay <recording>` with the options (their `out` the folder written), and any
 * further arguments; returns the paths where the result differs from the committed pack in `packDir`.
 */
export async function rebuildFromRecording(
  options: Readonly<Record<string, string>> & { out: string },
  recording: string,
  packDir: string,
  further: readonly string[] = [],
): Promise<string[]> {
  await promisify(execFile)(
    process.execPath,
    [cli, ...compileBuildArguments(options), '--replay', recording, ...further],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return packDifferences(packDir, options.out);
}
