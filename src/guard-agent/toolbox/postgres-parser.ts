import type * as LibPgQuery from 'libpg-query';
import { importOptional } from '../../optional-package.ts';

let parser: typeof LibPgQuery | undefined;
let loaded: Promise<void> | undefined;

/**
 * Loads PostgreSQL's own parser (compiled to WebAssembly, from the optional package `libpg-query`); call once before
 * `parsePostgres`.
 */
export function loadPostgresParser(): Promise<void> {
  loaded ??= (async () => {
    const module = await importOptional('reading SQL as PostgreSQL does', () => import('libpg-query'));
    await module.loadModule();
    parser = module;
  })();
  return loaded;
}

function loadedParser(): typeof LibPgQuery {
  if (parser === undefined) throw new Error('the PostgreSQL parser is not loaded: await `loadPostgresParser()` first');
  return parser;
}

/** A token of PostgreSQL's scanner, as `libpg-query` gives it (its `ScanToken`, which these types do not import). */
export interface PgToken {
  start: number;
  end: number;
  text: string;
  tokenType: number;
  tokenName: string;
  keywordKind: number;
  keywordName: string;
}

/** PostgreSQL's scanner tokens of a text; throws where the scanner refuses it. Requires `loadPostgresParser()`. */
export function scanPostgres(sql: string): PgToken[] {
  return loadedParser().scanSync(sql).tokens;
}

/** A node of PostgreSQL's raw parse tree: `{ NodeType: { …fields } }`. */
export type PgNode = Record<string, unknown>;

/** The statements of a parse, or where parsing failed. */
export type PgParse = { ok: true; statements: PgNode[] } | { ok: false; message: string; position: number | undefined };

/**
 * Parses SQL with PostgreSQL's parser. Never throws for bad SQL: a syntax error comes back with its message and
 * character position. Requires `loadPostgresParser()` to have resolved.
 *
 * @example
 * ```ts
 * await loadPostgresParser();
 * const parsed = parsePostgres('SELECT name FROM head');
 * ```
 */
export function parsePostgres(sql: string): PgParse {
  try {
    const tree = loadedParser().parseSync(sql) as { stmts?: { stmt: PgNode }[] };
    return { ok: true, statements: (tree.stmts ?? []).map((entry) => entry.stmt) };
  } catch (error) {
    const details = error as { message?: string; cursorPosition?: number; sqlDetails?: { cursorPosition?: number } };
    return {
      ok: false,
      message: details.message ?? String(error),
      position: details.sqlDetails?.cursorPosition ?? details.cursorPosition,
    };
  }
}

/** The name and fields of a node. */
export function nodeOf(node: unknown): [string, Record<string, unknown>] | undefined {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
  const [entry] = Object.entries(node);
  if (entry === undefined || typeof entry[1] !== 'object' || entry[1] === null) return undefined;
  return [entry[0], entry[1] as Record<string, unknown>];
}

/** The text of a `String` node. */
export function stringOf(node: unknown): string | undefined {
  const found = nodeOf(node);
  return found?.[0] === 'String' ? (found[1]['sval'] as string | undefined) : undefined;
}
