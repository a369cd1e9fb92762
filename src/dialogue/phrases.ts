/**
 * How the conversation's questions find words in a message: phrases as whole words, case aside, on the lower-case
 * canonical text. Every question reads through these, so that a phrase stands in a message for all of them or none.
 */
import type { Message } from '../model/conversation.ts';

function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const patterns = new Map<string, RegExp>();

/** The first place `phrase` stands in `text` as whole words, case aside, or -1. */
function find(text: string, phrase: string): number {
  if (phrase.trim() === '') return -1;
  let pattern = patterns.get(phrase);
  if (pattern === undefined) {
    pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${literally(phrase.toLowerCase())}(?![\\p{L}\\p{N}_])`, 'u');
    if (patterns.size > 5_000) patterns.clear();
    patterns.set(phrase, pattern);
  }
  return text.search(pattern);
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
  // Most phrases are absent: a plain search rules them out before the whole-word pattern runs.
  return phrases.filter((phrase) => text.includes(phrase.toLowerCase()) && find(text, phrase) !== -1);
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
