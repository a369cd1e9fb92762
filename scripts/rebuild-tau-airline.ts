/**
 * Regenerates the tau-airline pack through the generator from its spec and the committed recording, and compares
 * the result with the committed pack: `npm run rebuild:tau-airline -- --out <dir>`. Exits 1 when they differ.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ReplayModel, readCassette } from '../src/llm/cassette.ts';
import { buildTauAirline, packDir, recordingFile } from './tau-airline-build.ts';

/** Every file of a pack, by relative path, without the build folder. */
export async function packFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile())) {
    const path = join(name.parentPath, name.name).slice(dir.length).replace(/^\/+/, '');
    if (!path.startsWith('.build/')) files.set(path, await readFile(join(dir, path), 'utf8'));
  }
  return files;
}

/** The paths that differ between two packs. */
export async function packDifferences(left: string, right: string): Promise<string[]> {
  const [a, b] = await Promise.all([packFiles(left), packFiles(right)]);
  return [...new Set([...a.keys(), ...b.keys()])].filter((path) => a.get(path) !== b.get(path)).sort();
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (values.out === undefined) throw new Error('usage: npm run rebuild:tau-airline -- --out <dir>');
  const reports = await buildTauAirline(values.out, new ReplayModel(await readCassette(recordingFile)));
  const differences = await packDifferences(packDir, values.out);
  console.log(`rebuilt ${reports.length} policies into ${values.out}`);
  if (differences.length === 0) console.log('identical to packs/tau-airline');
  else console.log(`differs from packs/tau-airline in:\n${differences.map((path) => `  ${path}`).join('\n')}`);
  process.exitCode = differences.length === 0 ? 0 : 1;
}
