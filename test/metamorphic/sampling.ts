/**
 * How many variants a run makes and from which seed: `METAMORPHIC_SIZE` variants of each kind per input (3 unless
 * set, the size `npm test` runs) and `METAMORPHIC_SEED` (16 unless set). `npm run test:metamorphic -- --size N
 * --seed S` sets both.
 */
import fc from 'fast-check';

function positiveInteger(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`\`${name}\` must be a whole number, not \`${text}\``);
  return value;
}

/** Variants of each kind made per input. */
export const size = positiveInteger(process.env.METAMORPHIC_SIZE, 3, 'METAMORPHIC_SIZE');

/** The seed every variant is drawn from, and the generators' own property tests too. */
export const seed = positiveInteger(process.env.METAMORPHIC_SEED, 16, 'METAMORPHIC_SEED');

/** The run's seed mixed with a name (FNV-1a), so that each input and kind draws its own variants. */
function seedFor(name: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (const char of name) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193);
  return hash | 0;
}

/**
 * `size` values of an arbitrary, the same for the same seed and name.
 *
 * @example
 * ```ts
 * for (const text of draw(withFormatCharacters('Yes.'), 'run 1-0 call 2 unicode.format')) check(text);
 * ```
 */
export function draw<T>(arbitrary: fc.Arbitrary<T>, name: string): T[] {
  return size === 0 ? [] : fc.sample(arbitrary, { seed: seedFor(name), numRuns: size });
}

/** A permutation of `0..length-1` chosen by `choice`, the same for the same choice. */
export function permutation(length: number, choice: number): number[] {
  const order = Array.from({ length }, (_, index) => index);
  let state = choice >>> 0 || 1;
  for (let index = length - 1; index > 0; index--) {
    state = Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) >>> 0;
    const other = state % (index + 1);
    [order[index], order[other]] = [order[other] as number, order[index] as number];
  }
  return order;
}
