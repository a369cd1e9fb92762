import type { Message } from 'agentguard';

/**
 * Readings of conversation text remembered by the text itself: a conversation is read again for every call, and the
 * calls of one turn read the same words. The readings are pure, so remembering them changes no decision.
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

/** Lower case, with typographic apostrophes made plain. */
export const lower = rememberedBy((text: string) => text.toLowerCase().replaceAll('’', "'"));

/**
 * A message's text in lower case (see `lower`), empty for a tool result: read with `Conversation.readEach`, once per
 * message of a conversation and the conversations before it.
 */
export const lowerText = (message: Message): string => ('text' in message ? lower(message.text) : '');
