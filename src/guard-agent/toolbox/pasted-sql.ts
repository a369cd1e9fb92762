import { type ScanToken, scanSync } from 'libpg-query';
import { type PgNode, parsePostgres } from './postgres-parser.ts';

/** One statement of pasted SQL, as read: its parse tree, or why it could not be read. */
export type PastedStatement =
  | { ok: true; node: PgNode; text: string; quoted: string[] }
  | { ok: false; message: string; text: string };

/** PostgreSQL folds an unquoted identifier to lower case, ASCII letters only. */
export function foldIdentifier(name: string): string {
  return name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function scan(sql: string): ScanToken[] | undefined {
  try {
    return scanSync(sql).tokens;
  } catch {
    return undefined;
  }
}

/** The parse of one statement, with the index of the token where it failed. */
function attempt(text: string): { node: PgNode | undefined } | { message: string; at: number; tokens: ScanToken[] } {
  const parsed = parsePostgres(text);
  if (parsed.ok) return { node: parsed.statements[0] };
  const tokens = scan(text) ?? [];
  const position = parsed.position ?? text.length;
  const index = tokens.findIndex((token) => token.end > position);
  return { message: parsed.message, at: index === -1 ? tokens.length : index, tokens };
}

/**
 * The rewrites that may make a refused statement read as the person meant, for the error at token `at`: a keyword
 * the parser refused, or one just before it, quoted as the identifier it stands for; or, in a list of column
 * definitions or names, the element's first run of text without spaces (`ratings_(millions)`) quoted whole, as a dump
 * prints a name that needs quoting. Each comes as [first token, last token] to replace by the quoted, folded text.
 */
function repairs(tokens: readonly ScanToken[], at: number): [number, number][] {
  let start = at;
  let depth = 0;
  while (start > 0) {
    const previous = tokens[start - 1] as ScanToken;
    if (previous.text === ')') depth++;
    if (previous.text === '(' || previous.text === ',') {
      if (depth === 0) break;
      if (previous.text === '(') depth--;
    }
    start--;
  }
  const found: [number, number][] = [];
  for (let index = Math.min(at, tokens.length - 1); index >= start; index--) {
    if ((tokens[index] as ScanToken).keywordKind !== 0) found.push([index, index]);
  }
  if (start > 0 && start < tokens.length) {
    let end = start;
    let nesting = 0;
    while (end + 1 < tokens.length) {
      const next = tokens[end + 1] as ScanToken;
      if (next.start !== (tokens[end] as ScanToken).end) break;
      if (next.text === '(') nesting++;
      if (next.text === ')' && nesting-- === 0) break;
      if (next.text === ',' && nesting === 0) break;
      end++;
    }
    if (end > start) found.push([start, end]);
  }
  return found;
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
    for (const [first, last] of repairs(failed.tokens, failed.at)) {
      const from = (failed.tokens[first] as ScanToken).start;
      const to = (failed.tokens[last] as ScanToken).end;
      const name = foldIdentifier(text.slice(from, to));
      const candidate = `${text.slice(0, from)}${quote(name)}${text.slice(to)}`;
      const next = attempt(candidate);
      // A rewrite must read further than before (one token fewer for a run of several quoted into one).
      if (!('message' in next) || next.at + (last - first) > failed.at) {
        advanced = { text: candidate, name, result: next };
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
  const tokens = scan(sql);
  if (tokens === undefined) {
    const parsed = parsePostgres(sql);
    return [{ ok: false, message: parsed.ok ? 'could not be scanned' : parsed.message, text: sql.trim() }];
  }
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
