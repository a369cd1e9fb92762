import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';
import { stripTypes } from './strip-types.ts';

/** File URL prefixes (ending in `/`) of the pack folders whose TypeScript agentguard loads itself. */
const packRoots = new Set<string>();
let registered = false;

const isPackTypeScript = (url: string) => url.endsWith('.ts') && [...packRoots].some((root) => url.startsWith(root));

/**
 * Lets the current thread import a pack's TypeScript guard modules wherever the pack lives. Node strips types itself
 * except under `node_modules` (`ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING`), which is where the shipped packs, and
 * packs published as npm packages, are installed: there agentguard strips them with the TypeScript compiler. Only
 * `.ts` files inside the given folders are affected; everything else loads as Node loads it.
 *
 * @example
 * ```ts
 * loadTypeScriptFrom('node_modules/agentguard/packs/tau-airline');
 * await import('node_modules/agentguard/packs/tau-airline/guards/cancel_reservation.ts');
 * ```
 */
export function loadTypeScriptFrom(dir: string): void {
  const root = pathToFileURL(dir).href;
  if (!root.includes('/node_modules/')) return;
  packRoots.add(root.endsWith('/') ? root : `${root}/`);
  if (registered) return;
  registered = true;
  registerHooks({
    load(url, context, nextLoad) {
      if (!isPackTypeScript(url)) return nextLoad(url, context);
      return { format: 'module', source: stripTypes(readFileSync(new URL(url), 'utf8')), shortCircuit: true };
    },
  });
}
