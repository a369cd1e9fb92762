/**
 * Variants of a SQL query that the database reads the same way: keywords and unquoted names in another case, other
 * whitespace, comments between tokens, and the schema's names in double quotes. String literals and quoted names are
 * left as written.
 */
import fc from 'fast-check';

/** A query's tokens: quoted strings and names, words, whitespace, and single other characters. */
const tokens = (query: string) =>
  query.match(/'(?:[^']|'')*'|"(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_]*|\s+|[\s\S]/gu) ?? [];

const isWord = (token: string) => /^[A-Za-z_]/.test(token);
const isSpace = (token: string) => /^\s/.test(token);

/** Rewrites the tokens a mask picks among those `applies` to, one choice each. */
const rewritten = (
  query: string,
  applies: (token: string) => boolean,
  rewrite: (token: string, choice: number) => string,
): fc.Arbitrary<string> => {
  const parts = tokens(query);
  return fc
    .array(fc.nat(), { minLength: parts.length, maxLength: parts.length })
    .map((choices) =>
      parts.map((token, index) => (applies(token) ? rewrite(token, choices[index] ?? 0) : token)).join(''),
    );
};

const cases = [
  (word: string) => word.toUpperCase(),
  (word: string) => word.toLowerCase(),
  (word: string) => word[0]?.toUpperCase() + word.slice(1).toLowerCase(),
  (word: string) => word,
];

const spaces = [' ', '  ', '\n', '\t', '\n    ', ' \r\n '];

const comments = [' ', ' /* metamorphic */ ', '/**/', '\n-- metamorphic\n', ' /* -- */ '];

/** Words that are SQL keywords wherever they stand unquoted, even where a schema also names a column so. */
const keywords = new Set(
  'all and as asc between by case create cross desc distinct else end except exists from full group having in inner intersect is join left like limit natural not null offset on or order outer right select table then union using when where with'.split(
    ' ',
  ),
);

/**
 * The kinds of SQL variant by name, given the names of the schema's tables and columns (lower case), which the quoted
 * variant quotes where they are not keywords.
 */
export const sqlVariants = (names: ReadonlySet<string>): Record<string, (query: string) => fc.Arbitrary<string>> => ({
  'sql.case': (query) =>
    rewritten(query, isWord, (word, choice) => (cases[choice % cases.length] as (w: string) => string)(word)),
  'sql.whitespace': (query) => rewritten(query, isSpace, (_space, choice) => spaces[choice % spaces.length] as string),
  'sql.comments': (query) =>
    rewritten(query, isSpace, (space, choice) =>
      choice % 2 === 0 ? space : (comments[choice % comments.length] as string),
    ),
  'sql.quoted': (query) =>
    rewritten(
      query,
      (token) => names.has(token.toLowerCase()) && !keywords.has(token.toLowerCase()),
      (name, choice) => (choice % 3 === 0 ? name : `"${name.toLowerCase()}"`),
    ),
});
