/**
 * What the policies of a decision share, and readings worth keeping across decisions, remembered so that each is
 * computed once where it is asked for again.
 */

/**
 * Remembers what the policies of one decision share, for the last key only. The runtime hands every policy of one
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

const limit = 2_000;

/**
 * Wraps a pure reading of a text (a time stamp, say) so that each distinct text is read once (up to 2,000 texts, then
 * afresh): the records of one reservation hold the same texts decision after decision.
 */
export function rememberedBy<Value>(read: (text: string) => Value): (text: string) => Value {
  const cache = new Map<string, Value>();
  return (text) => {
    const known = cache.get(text);
    // One lookup for a known text; only a reading that is itself undefined asks twice.
    if (known !== undefined || cache.has(text)) return known as Value;
    const value = read(text);
    if (cache.size >= limit) cache.clear();
    cache.set(text, value);
    return value;
  };
}
