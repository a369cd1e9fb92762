import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseJsonText } from '../model/parse-input.ts';
import { loadPack, readPolicySpec } from './load-pack.ts';
import type { ToolPolicySpec } from './policy-spec.ts';

/**
 * Reads the tool-policy specs of a folder: a guard pack (its manifest names them), or a folder of spec files, one per
 * tool, in our schema or ToolGuard's (the tool is the file name).
 *
 * @example
 * ```ts
 * const gold = await readSpecDirectory('data/toolguard-airline-spec');
 * ```
 */
export async function readSpecDirectory(dir: string): Promise<Map<string, ToolPolicySpec>> {
  if (existsSync(join(dir, 'manifest.json'))) return new Map((await loadPack(dir, { importGuards: false })).specs);
  const specs = new Map<string, ToolPolicySpec>();
  for (const name of (await readdir(dir)).filter((file) => file.endsWith('.json')).sort()) {
    const file = join(dir, name);
    const spec = readPolicySpec(basename(name, '.json'), parseJsonText(await readFile(file, 'utf8'), file), file);
    specs.set(spec.tool, spec);
  }
  return specs;
}
