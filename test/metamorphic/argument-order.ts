/** Variants of a call's arguments: the same JSON with its object keys in another order. */
import fc from 'fast-check';
import { permutation } from './sampling.ts';

function reorder(value: unknown, choice: number): unknown {
  if (Array.isArray(value)) return value.map((item, index) => reorder(item, choice + index + 1));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  return Object.fromEntries(
    permutation(entries.length, choice).map((index) => {
      const [key, item] = entries[index] as [string, unknown];
      return [key, reorder(item, choice * 31 + index)];
    }),
  );
}

/** The arguments with the keys of every object in them in another order. */
export const withKeysReordered = (args: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> =>
  fc.nat().map((choice) => reorder(args, choice) as Record<string, unknown>);
