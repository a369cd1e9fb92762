import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AgentGuardError } from '../errors.ts';
import { writeAtomically } from '../files.ts';
import { parseJsonText } from '../model/parse-input.ts';
import { loadPack } from './load-pack.ts';
import type { ReviewRecord } from './manifest.ts';
import { packContentHashes, packFingerprint } from './review-hashes.ts';

/**
 * What an approval did: recorded it; or refused it because policies are not enforced and were not accepted, or
 * because the pack changed since the reviewer saw it (`fingerprint` differs).
 */
export type ApprovalResult =
  | { approved: true; review: ReviewRecord }
  | { approved: false; notEnforced: string[] }
  | { approved: false; changedSinceSeen: true };

/**
 * Marks a pack reviewed: records in its manifest who approved it, when, and the content hashes of every guard, spec,
 * test case and policy state the approval covers (written atomically; other manifest fields are kept as they are).
 * Refused while a policy is not enforced, unless `acceptNotEnforced` says the reviewer accepts that; and refused when
 * `fingerprint` (the `packFingerprint` of what the reviewer saw) no longer matches the pack on disk.
 *
 * @example
 * ```ts
 * const result = await approvePack('packs/shop', { by: 'policy-owner@example.com' });
 * if (!result.approved) console.log('not enforced:', result.notEnforced);
 * ```
 */
export async function approvePack(
  dir: string,
  options: { by: string; acceptNotEnforced?: boolean; fingerprint?: string; now?: Date },
): Promise<ApprovalResult> {
  const by = options.by.trim();
  if (by === '') throw new AgentGuardError('invalid_input', 'an approval needs the name of who approves');
  const pack = await loadPack(dir, { importGuards: false });
  const notEnforced = Object.values(pack.manifest.guards).flatMap((entry) =>
    entry.policies.filter((policy) => policy.state === 'not_enforced').map((policy) => policy.id),
  );
  const hashes = await packContentHashes(pack.dir, pack.manifest);
  if (options.fingerprint !== undefined && options.fingerprint !== packFingerprint(hashes)) {
    return { approved: false, changedSinceSeen: true };
  }
  if (notEnforced.length > 0 && options.acceptNotEnforced !== true) return { approved: false, notEnforced };
  const review: ReviewRecord = {
    by,
    at: (options.now ?? new Date()).toISOString(),
    hashes,
    acceptedNotEnforced: notEnforced,
  };
  const file = join(resolve(dir), 'manifest.json');
  const raw = parseJsonText(await readFile(file, 'utf8'), file) as Record<string, unknown>;
  await writeAtomically(file, `${JSON.stringify({ ...raw, reviewed: true, review }, null, 2)}\n`);
  return { approved: true, review };
}
