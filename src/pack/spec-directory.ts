import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { parseInput, parseJsonText } from '../model/parse-input.ts';
import { loadPack, readPolicySpec } from './load-pack.ts';
import type { ToolPolicySpec } from './policy-spec.ts';

/** Flags the policies named in `reasons` as archived, with their reason. */
const flagArchived = (specs: Map<string, ToolPolicySpec>, reasons: ReadonlyMap<string, string>) =>
  new Map(
    [...specs].map(([tool, spec]) => [
      tool,
      {
        ...spec,
        policies: spec.policies.map((policy) => {
          const reason = policy.archived ?? reasons.get(policy.id);
          return reason === undefined ? policy : { ...policy, archived: reason };
        }),
      },
    ]),
  );

/** Reads the spec files of a folder, one per tool, in our schema or ToolGuard's (the tool is the file name). */
async function readSpecFiles(dir: string): Promise<Map<string, ToolPolicySpec>> {
  const specs = new Map<string, ToolPolicySpec>();
  for (const name of (await readdir(dir)).filter((file) => file.endsWith('.json')).sort()) {
    const file = join(dir, name);
    const spec = readPolicySpec(basename(name, '.json'), parseJsonText(await readFile(file, 'utf8'), file), file);
    specs.set(spec.tool, spec);
  }
  return specs;
}

/**
 * Reads the specs `compile map` wrote to a folder: `spec/<tool>.json`, with the policies `archive.json` names flagged
 * `archived`.
 *
 * @example
 * ```ts
 * const specs = await readMapOutput('out');
 * ```
 */
export async function readMapOutput(dir: string): Promise<Map<string, ToolPolicySpec>> {
  const archiveFile = join(dir, 'archive.json');
  const reasons = existsSync(archiveFile)
    ? parseInput(
        z.record(z.string(), z.string()),
        parseJsonText(await readFile(archiveFile, 'utf8'), archiveFile),
        archiveFile,
      )
    : {};
  return flagArchived(await readSpecFiles(join(dir, 'spec')), new Map(Object.entries(reasons)));
}

/**
 * Reads the tool-policy specs of a folder: a guard pack (its manifest names them), the output folder of `compile map`
 * (`spec/` and `archive.json`), or a folder of spec files, one per tool, in our schema or ToolGuard's (the tool is the
 * file name). Archived policies (the pack's manifest, `archive.json`, or the spec's own flag) come back flagged with
 * `archived`, so callers can leave them out.
 *
 * @example
 * ```ts
 * const gold = await readSpecDirectory('data/toolguard-airline-spec');
 * const predicted = await readSpecDirectory('out'); // what `compile map --out out` wrote
 * ```
 */
export async function readSpecDirectory(dir: string): Promise<Map<string, ToolPolicySpec>> {
  if (existsSync(join(dir, 'manifest.json'))) {
    const pack = await loadPack(dir, { importGuards: false });
    const reasons = new Map<string, string>();
    for (const entry of Object.values(pack.manifest.guards)) {
      for (const policy of entry.policies) if (policy.state === 'archived') reasons.set(policy.id, policy.reason);
    }
    return flagArchived(new Map(pack.specs), reasons);
  }
  if (existsSync(join(dir, 'spec'))) return readMapOutput(dir);
  return readSpecFiles(dir);
}
