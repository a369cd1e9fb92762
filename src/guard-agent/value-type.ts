/** How deep and wide a derived type goes before it says `unknown`. */
const maxDepth = 5;
const maxKeys = 40;

/** Keys shown as they are: plain identifiers of modest length. Any other key is untrusted text and is not shown. */
const plainKey = /^[A-Za-z_$][\w$]{0,39}$/;

function union(types: readonly string[]): string {
  const distinct = [...new Set(types)];
  if (distinct.length === 0) return 'never';
  return distinct.length === 1 ? (distinct[0] as string) : distinct.join(' | ');
}

/**
 * The TypeScript type of a JSON value's shape: primitives by type (never by value, so no text of the value is
 * shown), arrays by the union of their elements' types, objects by their keys. Keys that are not plain identifiers
 * are untrusted text and become an index signature `[key: string]: …`; deep or wide values end in `unknown`.
 *
 * @example
 * ```ts
 * typeOfValue({ role: 'nursing', sql: null, tags: ['a'] }); // '{ role: string; sql: null; tags: string[] }'
 * ```
 */
export function typeOfValue(value: unknown, depth = 0): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    if (depth >= maxDepth) return 'unknown[]';
    const element = union(value.slice(0, 50).map((item) => typeOfValue(item, depth + 1)));
    return element === 'never' ? 'unknown[]' : element.includes(' ') ? `(${element})[]` : `${element}[]`;
  }
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object': {
      if (depth >= maxDepth) return 'Record<string, unknown>';
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length === 0) return 'Record<string, never>';
      if (entries.length > maxKeys) return 'Record<string, unknown>';
      const fields: string[] = [];
      const other: string[] = [];
      for (const [key, item] of entries) {
        if (plainKey.test(key)) fields.push(`${key}: ${typeOfValue(item, depth + 1)}`);
        else other.push(typeOfValue(item, depth + 1));
      }
      if (other.length > 0) fields.push(`[key: string]: ${fields.length > 0 ? 'unknown' : union(other)}`);
      return `{ ${fields.join('; ')} }`;
    }
    default:
      return 'unknown';
  }
}
