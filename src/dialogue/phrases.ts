/**
 * How the conversation's questions find words in a message: phrases as whole words, case aside, on the lower-case
 * canonical text. Every question reads through these, so that a phrase stands in a message for all of them or none.
 */
import type { Message } from '../model/conversation.ts';

const wordCharacter = /^[\p{L}\p{N}_]$/u;

/** Whether the character (code point) that ends before `index`, or starts at it, is part of a word. */
function wordAt(text: string, index: number, before: boolean): boolean {
  if (index < 0 || index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (code < 0x80)
    return (
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x30 && code <= 0x39) ||
      code === 0x5f ||
      (code >= 0x41 && code <= 0x5a)
    );
  // The other half of a surrogate pair sits before a low surrogate, after a high one.
  const start = before && code >= 0xdc00 && code <= 0xdfff && index > 0 ? index - 1 : index;
  const point = text.codePointAt(start);
  return point !== undefined && wordCharacter.test(String.fromCodePoint(point));
}

/** Every place (start index) where `phrase` stands in `text` (lower case) as whole words, case aside, first first. */
export function* places(text: string, phrase: string): Generator<number> {
  const needle = phrase.toLowerCase();
  if (needle.trim() === '') return;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (!wordAt(text, at - 1, true) && !wordAt(text, at + needle.length, false)) yield at;
  }
}

/** Whether `phrase` stands in `text` (lower case) as whole words. */
export function stands(text: string, phrase: string): boolean {
  return !places(text, phrase).next().done;
}

const lowered = new WeakMap<Message, string>();

/**
 * The lower-case text of a user, assistant or system message; empty for a tool result or no message. Remembered per
 * message: the questions of every decision on a conversation read its messages again.
 */
export function said(message: Message | undefined): string {
  if (message === undefined || message.role === 'tool') return '';
  let lower = lowered.get(message);
  if (lower === undefined) {
    lower = message.text.toLowerCase();
    lowered.set(message, lower);
  }
  return lower;
}

/** What `named` found in each text, for lists of phrases long enough to be worth it, by list. */
const found = new WeakMap<readonly string[], Map<string, readonly string[]>>();

function search(text: string, phrases: readonly string[]): readonly string[] {
  return phrases.filter((phrase) => stands(text, phrase));
}

/**
 * The phrases of `phrases` that stand in `text` (lower case) as whole words. What a long list (a domain's reasons or
 * classes, the same array each time) finds in a text is remembered, up to 2,000 texts per list.
 */
export function named(text: string, phrases: readonly string[]): readonly string[] {
  if (phrases.length < 4) return search(text, phrases);
  let byText = found.get(phrases);
  if (byText === undefined) {
    byText = new Map();
    found.set(phrases, byText);
  }
  let hits = byText.get(text);
  if (hits === undefined) {
    hits = search(text, phrases);
    if (byText.size >= 2_000) byText.clear();
    byText.set(text, hits);
  }
  return hits;
}
