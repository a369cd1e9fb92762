import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import ts from '../typescript-api.ts';

/** A module of a pack, with its path in the pack and its text. */
export interface PackModule {
  path: string;
  source: string;
}

/** The pack-relative path a relative import of `from` names; undefined for a package, or a path leaving the pack. */
function importedPath(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const path = normalize(join(dirname(from), specifier));
  if (isAbsolute(path) || path === '..' || path.startsWith(`..${sep}`)) return undefined;
  return path.split(sep).join('/');
}

/**
 * The pack's own modules a guard module imports, directly or through one another (the helpers under `guards/lib/`, the
 * pack's types), each once, in the order they are first imported; the guard module itself is left out. Imports of
 * packages (`agentguard`) are not followed. Imports are read with TypeScript's own pre-processor, so a comment or a
 * string that looks like an import is not one.
 *
 * @example
 * ```ts
 * const helpers = await importedModules('packs/tau-airline', 'guards/cancel_reservation/eligibility.ts');
 * ```
 */
export async function importedModules(packDir: string, guard: string): Promise<PackModule[]> {
  const seen = new Set([guard]);
  const found: PackModule[] = [];
  const visit = async (path: string, source: string): Promise<void> => {
    const imports = ts.preProcessFile(source, true, true).importedFiles;
    for (const { fileName } of imports) {
      const imported = importedPath(path, fileName);
      if (imported === undefined || seen.has(imported)) continue;
      seen.add(imported);
      const text = await readFile(join(packDir, imported), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      found.push({ path: imported, source: text });
      await visit(imported, text);
    }
  };
  await visit(guard, await readFile(join(packDir, guard), 'utf8'));
  return found;
}
