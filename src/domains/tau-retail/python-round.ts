/**
 * Python's `round(value, 2)` on a float: the decimal nearest the exact binary value, ties to even. `toFixed` finds the
 * nearest too but breaks ties away from zero; a tie at two decimals happens only when `value * 8` is an odd integer
 * (e.g. 0.125), where the even neighbour is taken instead.
 *
 * @example
 * ```ts
 * round2(0.125); // 0.12, as Python gives
 * round2(54.045000000000002); // 54.05
 * ```
 */
export function round2(value: number): number {
  const eighths = value * 8;
  if (Number.isInteger(eighths) && eighths % 2 !== 0) {
    const hundredths = value * 100;
    const floor = Math.floor(hundredths);
    return (floor % 2 === 0 ? floor : floor + 1) / 100;
  }
  return Number(value.toFixed(2));
}
