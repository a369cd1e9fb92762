import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding agentguard's `package.json`, whether it runs from `src/` or from the built `dist/src/`. */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('agentguard cannot find its package.json');
    dir = parent;
  }
  return dir;
}

const packageRoot = findPackageRoot();

/**
 * The absolute path of a file shipped with agentguard (its packs and data), from the package's root.
 *
 * @example
 * ```ts
 * const pack = await loadPack(packagePath('packs/tau-airline'));
 * ```
 */
export function packagePath(relative: string): string {
  return join(packageRoot, relative);
}

/**
 * The URL of another agentguard module, relative to the calling one and with the caller's own extension: `.ts` when
 * agentguard runs from source, `.js` when it runs built.
 *
 * @example
 * ```ts
 * new Worker(moduleUrl(import.meta.url, './worker-entry'));
 * ```
 */
export function moduleUrl(callerUrl: string, relative: string): URL {
  return new URL(`${relative}${callerUrl.slice(callerUrl.lastIndexOf('.'))}`, callerUrl);
}

/**
 * agentguard's version, from its `package.json`.
 *
 * @example
 * ```ts
 * const document = openApiDocument(packageVersion());
 * ```
 */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
}
