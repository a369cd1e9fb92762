import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { contentHash } from '../compiler/pack-layout.ts';
import type { Manifest } from './manifest.ts';

/** The key under which the policies' states (enforced with its effect, not enforced, archived) are hashed. */
export const policyStatesKey = 'manifest.json#policies';

/** A file (or the policies' states) that differs from what an approval covered. */
export interface ReviewChange {
  /** Path relative to the pack, or `manifest.json#policies`. */
  path: string;
  change: 'changed' | 'added' | 'removed';
}

async function packFiles(root: string, dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await packFiles(root, path)));
    else if (entry.isFile() && path !== join(root, 'manifest.json'))
      files.push(relative(root, path).split(sep).join('/'));
  }
  return files;
}

function policyStates(manifest: Manifest): unknown {
  return Object.entries(manifest.guards)
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([tool, entry]) => [
      tool,
      entry.spec ?? null,
      entry.guard ?? null,
      entry.policies.map((policy) => [policy.id, policy.state, policy.state === 'enforced' ? policy.effect : null]),
    ]);
}

/**
 * The content hashes an approval covers: every file of the pack but the manifest (guards, specs, test cases, tool
 * specs, policy document, domain types), by path relative to the pack, and the policies' states in the manifest.
 * Hidden files and folders (build caches) are left out.
 *
 * @example
 * ```ts
 * const hashes = await packContentHashes('packs/tau-airline', manifest);
 * ```
 */
export async function packContentHashes(dir: string, manifest: Manifest): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const file of (await packFiles(dir, dir)).sort()) {
    hashes[file] = contentHash(await readFile(join(dir, file), 'utf8'));
  }
  hashes[policyStatesKey] = contentHash(JSON.stringify(policyStates(manifest)));
  return hashes;
}

/**
 * What changed in a pack since its approval: empty when the manifest records no approval or nothing changed.
 *
 * @example
 * ```ts
 * if ((await reviewChanges(dir, manifest)).length > 0) console.log('the approval no longer holds');
 * ```
 */
export async function reviewChanges(dir: string, manifest: Manifest): Promise<ReviewChange[]> {
  if (manifest.review === undefined) return [];
  const approved = manifest.review.hashes;
  const current = await packContentHashes(dir, manifest);
  const changes: ReviewChange[] = [];
  for (const path of new Set([...Object.keys(approved), ...Object.keys(current)])) {
    const before = approved[path];
    const now = current[path];
    if (before === now) continue;
    changes.push({ path, change: before === undefined ? 'added' : now === undefined ? 'removed' : 'changed' });
  }
  return changes.sort((left, right) => left.path.localeCompare(right.path));
}

/**
 * One hash standing for all of a pack's content hashes: what a reviewer saw, to check at approval that it is still
 * what is on disk.
 *
 * @example
 * ```ts
 * const seen = packFingerprint(await packContentHashes(dir, manifest));
 * ```
 */
export function packFingerprint(hashes: Record<string, string>): string {
  return contentHash(JSON.stringify(Object.entries(hashes).sort(([left], [right]) => left.localeCompare(right))));
}
