import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { GuardPack } from '../pack/load-pack.ts';
import type { PackFingerprint } from './audit-record.ts';
import { canonicalJson, sha256Hex } from './canonical-json.ts';

/**
 * A pack's content hashes: `packSha256` over every regular file of its folder (the canonical JSON of the sorted
 * `[path, sha256 of content]` pairs, paths relative with `/`), and `policySha256` of its policy document. Reads the
 * folder once, synchronously: it runs when a runtime with an audit log starts.
 *
 * @example
 * ```ts
 * packFingerprint(await loadPack('packs/tau-airline')); // { domain: 'tau-airline', packSha256: '…', policySha256: '…' }
 * ```
 */
export function packFingerprint(pack: GuardPack): PackFingerprint {
  const files: [string, string][] = [];
  for (const entry of readdirSync(pack.dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.push([relative(pack.dir, path).split(sep).join('/'), sha256Hex(readFileSync(path))]);
  }
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    domain: pack.manifest.domain,
    packSha256: sha256Hex(canonicalJson(files)),
    policySha256: sha256Hex(pack.policyDocument),
  };
}
