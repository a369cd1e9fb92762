/**
 * What the policies of one decision share, remembered for the last key only. The runtime hands every policy of one
 * call the same context and runs them one after another, so the shared value is found under the last context (or its
 * conversation); an entry in a WeakMap per decision costs more than much of what it would remember. Another key
 * replaces the value, so a value is at worst computed again, never taken from another decision.
 */
export function rememberedLast<Key extends object, Value>(make: (key: Key) => Value): (key: Key) => Value {
  let lastKey: Key | undefined;
  let lastValue: Value | undefined;
  return (key) => {
    if (key !== lastKey) {
      lastValue = make(key);
      lastKey = key;
    }
    return lastValue as Value;
  };
}
