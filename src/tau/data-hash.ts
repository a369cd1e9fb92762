import { canonicalJson, sha256Hex } from '../audit/canonical-json.ts';

/** The hash of each record, kept while the record lives: records are frozen and a change stores a new one. */
const recordHashes = new WeakMap<object, string>();

function recordHash(record: object): string {
  let hash = recordHashes.get(record);
  if (hash === undefined) {
    hash = sha256Hex(canonicalJson(record));
    if (Object.isFrozen(record)) recordHashes.set(record, hash);
  }
  return hash;
}

/**
 * The hash of a domain's data, as tau-bench's `get_data_hash` compares it: equal data (the same tables, ids and
 * records, key order aside) gives an equal hash, and different data a different one. tau-bench hashes Python's text
 * of the sorted data; this hashes the sorted ids with the SHA-256 of each record's canonical JSON, so records shared
 * by many runs are hashed once. The one difference: Python tells `1` from `1.0` and JSON numbers here do not.
 *
 * @example
 * ```ts
 * dataHash(database.tables()); // '5f2c…'
 * ```
 */
export function dataHash(tables: Record<string, Iterable<[string, object]>>): string {
  const lines: string[] = [];
  for (const name of Object.keys(tables).sort()) {
    const rows: string[] = [];
    // Ids are unique, so sorting the lines orders the records by id.
    for (const [id, record] of tables[name] ?? []) rows.push(`${JSON.stringify(id)} ${recordHash(record)}`);
    lines.push(`#${JSON.stringify(name)}`, ...rows.sort());
  }
  return sha256Hex(lines.join('\n'));
}
