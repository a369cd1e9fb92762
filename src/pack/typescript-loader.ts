import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';
import { stripTypes } from './strip-types.ts';

/** File URL prefixes (ending in `/`) of the pack folders whose modules agentguard loads itself. */
const packRoots = new Set<string>();
let registered = false;

const inPack = (url: string) => url.startsWith('file:') && [...packRoots].some((root) => url.startsWith(root));

/**
 * Lets the current thread import a pack's guard modules the same way wherever the pack lives. A pack's `.ts` and `.js`
 * files are ES modules whatever the nearest `package.json` says (a project whose `"type"` is `"commonjs"`, or none),
 * so a pack copied into any project loads as it does here. Node strips types itself except under `node_modules`
 * (`ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING`), which is where the shipped packs, and packs published as npm
 * packages, are installed: there agentguard strips them with amaro, the stripper Node itself uses. Only files inside the given
 * folders are affected; everything else loads as Node loads it.
 *
 * @example
 * ```ts
 * loadTypeScriptFrom('node_modules/agentguard/packs/tau-airline');
 * await import('node_modules/agentguard/packs/tau-airline/guards/cancel_reservation.ts');
 * ```
 */
export function loadTypeScriptFrom(dir: string): void {
  const root = pathToFileURL(dir).href;
  packRoots.add(root.endsWith('/') ? root : `${root}/`);
  if (registered) return;
  registered = true;
  registerHooks({
    load(url, context, nextLoad) {
      if (!inPack(url)) return nextLoad(url, context);
      if (url.endsWith('.ts')) {
        if (!url.includes('/node_modules/')) return nextLoad(url, { ...context, format: 'module-typescript' });
        return { format: 'module', source: stripTypes(readFileSync(new URL(url), 'utf8')), shortCircuit: true };
      }
      if (url.endsWith('.js')) return nextLoad(url, { ...context, format: 'module' });
      return nextLoad(url, context);
    },
  });
}
