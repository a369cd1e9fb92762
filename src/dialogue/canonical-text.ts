/**
 * The one form of message text every reading sees: a message that looks the same to a person reads the same to a
 * guard, whatever invisible characters, compatibility forms or typographic quotes it was written with.
 */

/**
 * Characters that show nothing: format characters (zero-width space and joiners, word joiner, byte order mark, soft
 * hyphen, bidirectional controls, tags), the combining grapheme joiner, variation selectors and the Hangul fillers.
 */
const invisible = /\p{Cf}|[\u115f\u1160\u3164\uffa0]|\u034f|\p{Variation_Selector}/gu;
const apostrophes = /[\u2018\u2019\u201a\u201b\u2032\u2035\u00b4\u02b9\u02bb\u02bc\u02bd\u02c8\u0060]/g;
const quotes = /[\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb\u02ba\u02dd\u2039\u203a]/g;
const dashes = /[\u2010-\u2015\u2212\u2e3a\u2e3b\ufe58\ufe63\uff0d]/g;
const lineBreak = /\s*[\n\r\v\f\u0085\u2028\u2029]\s*/g;
const space = /[^\S\n]+/g;
/**
 * Text that is already canonical: lines of printable ASCII but the backtick, single spaces, no line or either end
 * blank.
 */
const plain = /^(?:[\x21-\x5f\x61-\x7e]+(?: [\x21-\x5f\x61-\x7e]+)*(?:\n(?=[\x21-\x5f\x61-\x7e])|$))*$/;

/**
 * Rewrites a message's text in its canonical form: format and other invisible characters removed, Unicode NFKC
 * (fullwidth letters, ligatures and other compatibility forms made plain), typographic apostrophes, quotes and dashes
 * made ASCII (the backtick an apostrophe), each run of white space made one space, or one line break where it holds one, and none at either end.
 * Case is kept. Applying it twice changes nothing more.
 *
 * @example
 * ```ts
 * canonicalText('Please d\u200bon’t  go ahead'); // "Please don't go ahead"
 * canonicalText('ｙｅｓ'); // 'yes'
 * ```
 */
export function canonicalText(text: string): string {
  if (plain.test(text)) return text;
  return text
    .replace(invisible, '')
    .replace(apostrophes, "'")
    .normalize('NFKC')
    .replace(invisible, '')
    .replace(apostrophes, "'")
    .replace(quotes, '"')
    .replace(dashes, '-')
    .replace(lineBreak, '\n')
    .replace(space, ' ')
    .trim();
}
