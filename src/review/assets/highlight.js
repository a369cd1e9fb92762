/**
 * A small TypeScript highlighter: splits source text into tokens a page can colour. Every character of the source
 * lands in exactly one token, so joining the tokens gives the source back.
 */

const keywords = new Set(
  (
    'abstract as async await break case catch class const continue debugger declare default delete do else enum ' +
    'export extends false finally for from function get if implements import in instanceof interface keyof let new ' +
    'null of private protected public readonly return satisfies set static super switch this throw true try type ' +
    'typeof undefined var void while with yield'
  ).split(' '),
);

const token =
  /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|(`(?:\\[\s\S]|[^\\`])*(?:`|$)|'(?:\\.|[^\\'\n])*'?|"(?:\\.|[^\\"\n])*"?)|(\b\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?n?\b)|([A-Za-z_$][\w$]*)|(\s+)|([\s\S])/gy;

/**
 * Splits TypeScript source into tokens: `comment`, `string`, `number`, `keyword`, `type` (a capitalised name),
 * `name`, `space` and `punctuation`.
 *
 * @param {string} source
 * @returns {{ kind: string, text: string }[]}
 */
export function highlightTypeScript(source) {
  const tokens = [];
  token.lastIndex = 0;
  for (let match = token.exec(source); match !== null && match[0] !== ''; match = token.exec(source)) {
    const [text, comment, string, number, word, space] = match;
    let kind = 'punctuation';
    if (comment !== undefined) kind = 'comment';
    else if (string !== undefined) kind = 'string';
    else if (number !== undefined) kind = 'number';
    else if (word !== undefined) kind = keywords.has(word) ? 'keyword' : /^[A-Z]/.test(word) ? 'type' : 'name';
    else if (space !== undefined) kind = 'space';
    const last = tokens.at(-1);
    if (last !== undefined && last.kind === kind && (kind === 'space' || kind === 'punctuation')) last.text += text;
    else tokens.push({ kind, text });
  }
  return tokens;
}
