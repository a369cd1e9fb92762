/**
 * The static check that keeps generated checks on the conversation's questions: a check that reads message text
 * itself (its own string matching) is flagged in the build report and on the review page, not silently enforced.
 */

/** Reading message text: a message's `text`, the user's texts, every message through `readEach`, a confirmation's words. */
const textReading = /\.text\b|\buserTexts\s*\(|\breadEach\s*\(|\.(reply|proposal)\b|\.words\b/;
const comment = /\/\/.*$|\/\*[\s\S]*?\*\//gm;

/**
 * The lines of a check's source (numbered from 1, trimmed) that read message text itself instead of asking the
 * conversation's questions (`agreed`, `stated`, `chose`, `reasonGiven`, `askedAbout`); none for a check that does not.
 *
 * @example
 * ```ts
 * readsMessageText("const said = context.conversation.userTexts().join(' ');"); // ["1: const said = …"]
 * ```
 */
export function readsMessageText(code: string): string[] {
  const blank = code.replace(comment, (text) => text.replace(/[^\n]/g, ' '));
  return blank.split('\n').flatMap((line, index) => (textReading.test(line) ? [`${index + 1}: ${line.trim()}`] : []));
}
