import { type PgNode, type PgToken, parsePostgres, scanPostgres } from './postgres-parser.ts';

/** One statement of pasted SQL, as read: its parse tree, or why it could not be read. */
export type PastedStatement =
  | { ok: true; node: PgNode; text: string; quoted: string[] }
  | { ok: false; message: string; text: string };

/** PostgreSQL folds an unquoted identifier to lower case, ASCII letters only. */
export function foldIdentifier(name: string): string {
  return name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function scan(sql: string): PgToken[] | undefined {
  try {
    return scanPostgres(sql);
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL's tokens of the text. Where its scanner refuses a word (`2007_total`: trailing junk after a number), that
 * word, up to the next space or `;`, stands as one token of no kind, and scanning goes on after it.
 */
function tokensOf(sql: string): PgToken[] {
  const tokens: PgToken[] = [];
  let offset = 0;
  const add = (found: readonly PgToken[]) =>
    tokens.push(...found.map((token) => ({ ...token, start: token.start + offset, end: token.end + offset })));
  while (offset < sql.length) {
    const rest = sql.slice(offset);
    const whole = scan(rest);
    if (whole !== undefined) {
      add(whole);
      break;
    }
    // The parser names the first place it fails, for a syntax error or the scanner's; step word by word to the latter.
    const parsed = parsePostgres(rest);
    const stop = parsed.ok ? rest.length : (parsed.position ?? rest.length);
    const end = stop + Math.max(/^[^\s;]*/.exec(rest.slice(stop))?.[0].length ?? 0, 1);
    const scanned = scan(rest.slice(0, end));
    if (scanned !== undefined) add(scanned);
    else {
      add(scan(rest.slice(0, stop)) ?? []);
      tokens.push({
        start: offset + stop,
        end: offset + end,
        text: rest.slice(stop, end),
        tokenType: 0,
        tokenName: 'UNSCANNED',
        keywordKind: 0,
        keywordName: 'NO_KEYWORD',
      });
    }
    offset += end;
  }
  return tokens;
}

/** The parse of one statement, or where it failed (a character offset). */
function attempt(text: string): { node: PgNode | undefined } | { message: string; position: number } {
  const parsed = parsePostgres(text);
  if (parsed.ok) return { node: parsed.statements[0] };
  return { message: parsed.message, position: parsed.position ?? text.length };
}

/**
 * The rewrites that may make a refused statement read as the person meant, for the error at `position`: a keyword
 * the parser refused, or one before it in the same list element, quoted as the identifier it stands for; or the
 * element's first run of text without spaces (`ratings_(millions)`, `%_change_2007`), quoted whole, as a dump prints
 * a name that needs quoting. Each comes as the [start, end) characters to replace by the quoted, folded text.
 */
function repairs(text: string, position: number): [number, number][] {
  const tokens = tokensOf(text);
  const found = tokens.findIndex((token) => token.end > position);
  const at = found === -1 ? tokens.length : found;
  let start = at;
  let depth = 0;
  while (start > 0) {
    const previous = tokens[start - 1] as PgToken;
    if (previous.text === ')') depth++;
    if (previous.text === '(' || previous.text === ',') {
      if (depth === 0) break;
      if (previous.text === '(') depth--;
    }
    start--;
  }
  const ranges: [number, number][] = [];
  for (let index = Math.min(at, tokens.length - 1); index >= start; index--) {
    const token = tokens[index] as PgToken;
    if (token.keywordKind !== 0) ranges.push([token.start, token.end]);
  }
  if (start === 0) return ranges;
  const from = start < at ? (tokens[start] as PgToken).start : position;
  let end = from;
  let nesting = 0;
  for (; end < text.length; end++) {
    const character = text[end] as string;
    if (/\s/.test(character) || (character === ',' && nesting === 0)) break;
    if (character === '(') nesting++;
    if (character === ')' && nesting-- === 0) break;
  }
  if (end > from && text[from] !== '"') ranges.push([from, end]);
  return ranges;
}

/**
 * Reads one statement, quoting the identifiers PostgreSQL's parser refuses where a quote makes it read further;
 * nothing for text without a statement (a comment).
 */
function readStatement(original: string): PastedStatement | undefined {
  let text = original;
  const quoted: string[] = [];
  let result = attempt(text);
  const firstError = 'message' in result ? result.message : '';
  while ('message' in result) {
    const failed = result;
    let advanced: { text: string; name: string; result: ReturnType<typeof attempt> } | undefined;
    for (const [from, to] of repairs(text, failed.position)) {
      const name = quote(foldIdentifier(text.slice(from, to)));
      const candidate = `${text.slice(0, from)}${name}${text.slice(to)}`;
      const next = attempt(candidate);
      // A rewrite must read further than before, counted in the text as it was.
      if (!('message' in next) || next.position - (name.length - (to - from)) > failed.position) {
        advanced = { text: candidate, name: foldIdentifier(text.slice(from, to)), result: next };
        break;
      }
    }
    if (advanced === undefined) return { ok: false, message: firstError, text: original.trim() };
    text = advanced.text;
    quoted.push(advanced.name);
    result = advanced.result;
  }
  return result.node === undefined ? undefined : { ok: true, node: result.node, text: original.trim(), quoted };
}

/**
 * Reads SQL text as a person pastes it (schema dumps, GRANT lists) with PostgreSQL's parser, statement by
 * statement. Where the parser refuses a statement, words it knows as keywords and names a dump prints bare
 * (`end`, `from`, `order`, `ratings_(millions)`) are quoted where they stand as identifiers, folded to lower case as
 * PostgreSQL folds unquoted names, and the statement parsed again; a rewrite is kept only if the parser then reads
 * further. A statement no such rewrite makes readable comes back with the parser's first message. Only for
 * declarations: a query is read exactly as PostgreSQL would run it.
 *
 * @example
 * ```ts
 * readPastedSql('CREATE TABLE trip (start integer, end integer);'); // [{ ok: true, quoted: ['end'], … }]
 * ```
 */
export function readPastedSql(sql: string): PastedStatement[] {
  const tokens = tokensOf(sql);
  const statements: PastedStatement[] = [];
  let from = 0;
  for (const token of [...tokens.filter((item) => item.text === ';'), { start: sql.length }]) {
    const text = sql.slice(from, token.start);
    const words = tokens.some(
      (item) => item.start >= from && item.end <= token.start && !item.tokenName.endsWith('_COMMENT'),
    );
    from = token.start + 1;
    const statement = words ? readStatement(text) : undefined;
    if (statement !== undefined) statements.push(statement);
  }
  return statements;
}
