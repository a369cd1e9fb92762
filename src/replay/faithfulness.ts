/** How a recomputed tool result compares with the recorded one. */
export type Faithfulness = 'same' | 'address_rename' | 'different';

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function equal(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  return leftKeys.every(
    (key) =>
      Object.hasOwn(right, key) &&
      equal((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]),
  );
}

/** Renames `address.province` to `address.state` wherever an address appears (the data's later field name). */
function renameProvince(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renameProvince);
  if (typeof value !== 'object' || value === null) return value;
  const renamed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'address' && typeof item === 'object' && item !== null && 'province' in item) {
      const { province, ...rest } = item as Record<string, unknown>;
      renamed[key] = { ...rest, state: province };
    } else {
      renamed[key] = renameProvince(item);
    }
  }
  return renamed;
}

/**
 * Compares a recorded tool result with the port's result for the same call: equal as JSON values (key order and
 * number formatting aside), equal once the recorded `address.province` is read as `state`, or different.
 *
 * @example
 * ```ts
 * compareResults('{"a": 1.0}', '{"a": 1}'); // 'same'
 * ```
 */
export function compareResults(recorded: string, recomputed: string): Faithfulness {
  const before = parse(recorded);
  const after = parse(recomputed);
  if (equal(before, after)) return 'same';
  if (equal(renameProvince(before), after)) return 'address_rename';
  return 'different';
}
