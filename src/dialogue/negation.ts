/**
 * How a user's words refuse or rule out what a phrase names, within its clause: "I don't want a voucher", "I do not
 * wish to add travel insurance", "a one-way ticket, not round trip", "compensation isn't necessary". One reading,
 * shared by `requested` (the user refuses the matter) and `chose` (the user declines the matter, or rules an option
 * out). A negation that is part of the phrase itself ("no insurance") does not refuse it: only the words around it in
 * its clause count. The words are English grammar, never a domain's.
 */
import { places } from './phrases.ts';

/** Where a clause ends: a sentence's end, a semicolon, colon or comma, a line's end, an "and" or a "but". */
const clauseEnd = /[.!?;:,\n]|\b(?:but|and)\b/gu;

/**
 * Words right before the phrase, in its clause, that refuse it: "I don't want a voucher", "I don't think I need
 * insurance", "please don't add insurance" (a verb of doing refuses only in the present or future: "I didn't get a
 * refund" reports, it does not refuse), "no need for compensation", "without the insurance", "not round trip", "no
 * other voucher", "don't" right before a phrase that holds its verb ("don't add travel insurance").
 */
const refusedBefore = new RegExp(
  [
    String.raw`\b(don't|do not|doesn't|does not|didn't|did not|won't|will not|wouldn't|would not|not|never)(\s+(really|even|actually|particularly|necessarily))?(\s+(think|believe)(\s+\S+){0,2}?)?\s+(want|need|expect|ask|asking|looking|interested|require|care|seeking|wish|plan|planning)\b(\s+\S+){0,3}?\s*$`,
    String.raw`\b(don't|do not|won't|will not|wouldn't|would not)\s+(add|include|get|have|take|buy|purchase|choose|select|use)\b(\s+\S+){0,3}?\s*$`,
    String.raw`\bno need (for|of)\b(\s+\S+){0,2}?\s*$`,
    String.raw`\b(never ?mind|forget( about)?|without|skip|decline|pass on)\b(\s+\S+){0,2}?\s*$`,
    String.raw`(^|\s)(no|not|never|don't|do not|won't|will not)\s+(more\s+|other\s+|a\s+|an\s+|the\s+|any\s+)?$`,
  ].join('|'),
  'u',
);

/** Words right after the phrase, in its clause, that refuse it: "compensation isn't necessary". */
const refusedAfter =
  /^(\s+\S+){0,2}?\s+(isn't|is not|aren't|are not|not|won't be|will not be)\s+(needed|necessary|required|wanted)\b/u;

/** The clause of `text` around the words from `at` to `end`: the text before them in it, after them, and the whole. */
export function clauseAround(text: string, at: number, end: number): { before: string; after: string; whole: string } {
  let start = 0;
  for (const match of text.slice(0, at).matchAll(clauseEnd)) start = match.index + match[0].length;
  const next = text.slice(end).search(clauseEnd);
  const stop = next === -1 ? text.length : end + next;
  return { before: text.slice(start, at), after: text.slice(end, stop), whole: text.slice(start, stop + 1) };
}

/** The words that refuse `phrase` where it stands at `at` in `text` (lower case), with the phrase; else undefined. */
export function refusalAt(text: string, at: number, phrase: string): string | undefined {
  const clause = clauseAround(text, at, at + phrase.length);
  const refusal = refusedBefore.exec(clause.before);
  if (refusal !== null) return `${refusal[0].trim()} ${phrase}`.trim();
  const after = refusedAfter.exec(clause.after);
  return after === null ? undefined : `${phrase} ${after[0].trim()}`;
}

/** How `text` (lower case) names one phrase: the places it stands, and whether it stands anywhere unrefused. */
export interface Mention {
  /** The phrase, as the caller gave it. */
  phrase: string;
  /** The refusing words of each refused place, the phrase with them. */
  refusals: string[];
  /** Whether some place of the phrase is not refused. */
  affirmed: boolean;
}

/** The phrases of `phrases` that stand in `text` (lower case) as whole words, each with its refusals. */
export function mentions(text: string, phrases: readonly string[]): Mention[] {
  const found: Mention[] = [];
  for (const phrase of phrases) {
    const mention: Mention = { phrase, refusals: [], affirmed: false };
    for (const at of places(text, phrase)) {
      const refusal = refusalAt(text, at, phrase.toLowerCase());
      if (refusal === undefined) mention.affirmed = true;
      else mention.refusals.push(refusal);
    }
    if (mention.affirmed || mention.refusals.length > 0) found.push(mention);
  }
  return found;
}

/** The words of the first refused place of any of `phrases` in `text` (lower case), or undefined when none is refused. */
export function refused(text: string, phrases: readonly string[]): string | undefined {
  for (const mention of mentions(text, phrases)) if (mention.refusals[0] !== undefined) return mention.refusals[0];
  return undefined;
}

/**
 * The phrases of `phrases` that stand in `text` (lower case) somewhere outside a clause that refuses them: the first
 * such place settles a phrase, so the places after it are not read.
 */
export function affirmed(text: string, phrases: readonly string[]): string[] {
  return phrases.filter((phrase) => {
    for (const at of places(text, phrase)) if (refusalAt(text, at, phrase.toLowerCase()) === undefined) return true;
    return false;
  });
}
