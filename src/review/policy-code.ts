import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { policyFile } from '../compiler/pack-layout.ts';
import type { GuardPack } from '../pack/load-pack.ts';
import { importedModules, type PackModule } from './guard-modules.ts';

/** The code that decides a policy: its guard module and the pack's modules that module imports. */
export interface PolicyCode extends PackModule {
  /** The helper modules the guard imports, directly or not (`guards/lib/*`, the pack's types), each once. */
  helpers: PackModule[];
}

/**
 * The code that decides a policy: the policy's own module (`guards/<tool>/<name>.ts`), or else its tool's guard
 * module, with the helpers it imports; null when the pack has neither.
 *
 * @example
 * ```ts
 * const code = await policyCode(pack, 'cancel_reservation', 'cancel.eligibility');
 * ```
 */
export async function policyCode(pack: GuardPack, tool: string, policy: string): Promise<PolicyCode | null> {
  const own = policyFile(tool, policy);
  const path = existsSync(join(pack.dir, own)) ? own : pack.manifest.guards[tool]?.guard;
  if (path === undefined) return null;
  return {
    path,
    source: await readFile(join(pack.dir, path), 'utf8'),
    helpers: await importedModules(pack.dir, path),
  };
}

/**
 * The pack files a policy's decisions depend on: its guard code and helpers, its tool's guard module and spec, and
 * its tool's test cases. An approval holds for the policy while none of them changed.
 *
 * @example
 * ```ts
 * const files = await policyFiles(pack, 'cancel_reservation', 'cancel.eligibility');
 * ```
 */
export async function policyFiles(pack: GuardPack, tool: string, policy: string): Promise<string[]> {
  const code = await policyCode(pack, tool, policy);
  const entry = pack.manifest.guards[tool];
  return [
    ...(code === null ? [] : [code.path, ...code.helpers.map((helper) => helper.path)]),
    ...(entry?.guard === undefined ? [] : [entry.guard]),
    ...(entry?.spec === undefined ? [] : [entry.spec]),
    `tests/${tool}.cases.json`,
  ];
}
