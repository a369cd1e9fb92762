import { createHash } from 'node:crypto';

function write(value: unknown, parts: string[], seen: Set<object>): void {
  if (value === null || value === undefined) {
    parts.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      parts.push(JSON.stringify(value));
      return;
    case 'number':
      parts.push(Number.isFinite(value) ? JSON.stringify(value) : 'null');
      return;
    case 'boolean':
      parts.push(value ? 'true' : 'false');
      return;
    case 'bigint':
      parts.push(JSON.stringify(value.toString()));
      return;
    case 'object':
      break;
    default:
      parts.push('null');
      return;
  }
  const object = value as { toJSON?: () => unknown };
  if (typeof object.toJSON === 'function') {
    write(object.toJSON(), parts, seen);
    return;
  }
  if (seen.has(object)) throw new TypeError('cannot serialise a cyclic value');
  seen.add(object);
  if (Array.isArray(object)) {
    parts.push('[');
    object.forEach((item, index) => {
      if (index > 0) parts.push(',');
      write(item, parts, seen);
    });
    parts.push(']');
  } else {
    const record = object as Record<string, unknown>;
    parts.push('{');
    let first = true;
    for (const key of Object.keys(record).sort()) {
      const item = record[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      if (!first) parts.push(',');
      first = false;
      parts.push(JSON.stringify(key), ':');
      write(item, parts, seen);
    }
    parts.push('}');
  }
  seen.delete(object);
}

/**
 * The canonical JSON text of a value, in the manner of RFC 8785: object keys sorted by UTF-16 code units, no
 * whitespace, strings and numbers as `JSON.stringify` writes them, properties that are `undefined` left out. Parsing
 * the text and serialising it again gives the same text, so a record's hash can be recomputed from its JSON. Bigints
 * become strings and non-finite numbers `null`; a cyclic value throws a `TypeError`.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, 'x'] }); // '{"a":[true,"x"],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, parts, new Set());
  return parts.join('');
}

/**
 * The SHA-256 digest of a text (UTF-8), in lowercase hex.
 *
 * @example
 * ```ts
 * sha256Hex(canonicalJson(record));
 * ```
 */
export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}
