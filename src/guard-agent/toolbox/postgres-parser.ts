import { loadModule, parseSync } from 'libpg-query';

let loaded: Promise<void> | undefined;

/** Loads PostgreSQL's own parser (compiled to WebAssembly); call once before `parsePostgres`. */
export function loadPostgresParser(): Promise<void> {
  loaded ??= loadModule();
  return loaded;
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
    const tree = parseSync(sql) as { stmts?: { stmt: PgNode }[] };
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
