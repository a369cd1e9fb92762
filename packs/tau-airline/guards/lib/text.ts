/**
 * Readings of text remembered by the text itself: a conversation rebuilt for every call, and the records of one
 * reservation, hold the same words. The readings are pure, so remembering them changes no decision.
 */

const limit = 2_000;

/** Wraps a pure reading of a text so that each distinct text is read once (up to `limit` texts, then afresh). */
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
