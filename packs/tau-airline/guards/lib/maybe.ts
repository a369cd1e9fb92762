/**
 * Lookups answer at once when the invoker can (a database in the same process) and with a promise otherwise. Checks
 * chain on their answers with `after`, so that a check over answers given at once decides without making a promise,
 * and the same check over promised answers returns a promise of the same finding.
 */

/** A value now, or a promise of it. */
export type Maybe<Value> = Value | Promise<Value>;

/** Calls `next` with the value: at once when it is there, when it arrives otherwise. */
export function after<Value, Result>(value: Maybe<Value>, next: (value: Value) => Maybe<Result>): Maybe<Result> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** The values of a list: at once when every one is there, a promise of them otherwise. */
export function allOf<Value>(values: readonly Maybe<Value>[]): Maybe<Value[]> {
  return values.some((value) => value instanceof Promise) ? Promise.all(values) : (values as Value[]);
}
