import { constants, DatabaseSync } from 'node:sqlite';
import type { TableAccess } from './sql-access.ts';

/**
 * What a SQLite query reads, as SQLite itself resolves it: the tables and columns, in the order SQLite reports them
 * (a table read for no column, as by `count(*)`, with no columns), or why that could not be determined.
 */
export type SqliteReads = { ok: true; tables: TableAccess[] } | { ok: false; reason: string };

/** A schema as tables to columns, or as the text of its `CREATE TABLE`, `CREATE VIEW` and `CREATE INDEX` statements. */
export type SqliteSchema =
  | string
  | ReadonlyMap<string, readonly string[]>
  | Readonly<Record<string, readonly string[]>>;

/** The authorizer's action codes a query may use: reading, selecting, calling functions and recursing (CTEs). */
const queryActions = new Set([
  constants.SQLITE_READ,
  constants.SQLITE_SELECT,
  constants.SQLITE_FUNCTION,
  constants.SQLITE_RECURSIVE,
]);

/** What building a schema may do: create tables, views and indexes (which writes `sqlite_master`), in memory. */
const schemaActions = new Set([
  ...queryActions,
  constants.SQLITE_CREATE_TABLE,
  constants.SQLITE_CREATE_TEMP_TABLE,
  constants.SQLITE_CREATE_VIEW,
  constants.SQLITE_CREATE_TEMP_VIEW,
  constants.SQLITE_CREATE_INDEX,
  constants.SQLITE_CREATE_TEMP_INDEX,
  constants.SQLITE_REINDEX,
  constants.SQLITE_TRANSACTION,
]);
const schemaTables = new Set(['sqlite_master', 'sqlite_temp_master']);

const actionNames = new Map(
  Object.entries(constants)
    .filter(([name]) => name.startsWith('SQLITE_') && !/^SQLITE_(OK|DENY|IGNORE|CHANGESET)/.test(name))
    .map(([name, code]) => [code, name.slice('SQLITE_'.length).toLowerCase().replaceAll('_', ' ')]),
);

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** `CREATE TABLE` statements for a schema given as tables to columns. */
function ddlOf(schema: Exclude<SqliteSchema, string>): string {
  const entries: [string, readonly string[]][] =
    schema instanceof Map ? [...schema] : Object.entries(schema as Readonly<Record<string, readonly string[]>>);
  return entries
    .map(([table, columns]) => `CREATE TABLE ${quote(table)} (${columns.map((column) => quote(column)).join(', ')});`)
    .join('\n');
}

/** The result columns and plan of `sql` in a database, or undefined when it does not prepare there. */
function planOf(database: DatabaseSync, sql: string): string | undefined {
  try {
    const names = database
      .prepare(sql)
      .columns()
      .map((column) => column.name);
    // The schema version (`Transaction` operands) differs after ALTER TABLE; it is no part of the plan.
    const plan = database
      .prepare(`EXPLAIN ${sql}`)
      .all()
      .map((step) => (step.opcode === 'Transaction' ? { ...step, p3: 0, p4: null } : step));
    return JSON.stringify([names, plan]);
  } catch {
    return undefined;
  }
}

interface Built {
  database: DatabaseSync;
  ddl: string;
  views: Set<string>;
  /** Each table's columns as declared, by lowercased table name. */
  columns: Map<string, { name: string; columns: string[] }>;
  /** Databases of the schema with one column renamed, by `table.column`, made when first needed. */
  variants: Map<string, DatabaseSync>;
  /** Set while a query is prepared: collects its reads and the first action that is not a read. */
  reads: { table: string; column: string }[];
  refused: string | undefined;
}

/**
 * Finds what SQLite queries read with SQLite's own name resolution: each schema becomes an in-memory SQLite database
 * (built once and kept), each query is prepared afresh (never run, never taken from a statement cache, which would
 * skip the authorizer) with an authorizer that records every (table, column) SQLite reports reading (`SQLITE_READ`)
 * and refuses any other action. A query SQLite refuses to prepare (a syntax error, an unknown or ambiguous column)
 * is reported with SQLite's message; so is one that does anything but read (writes, `PRAGMA`, `ATTACH`), one with
 * more than one statement, and a missing query. Reads through a view are reported as reads of its tables.
 *
 * @example
 * ```ts
 * const reader = new SqliteReader();
 * reader.reads('SELECT count(*) FROM lab', { lab: ['labid', 'labname'] }); // { ok: true, tables: [{ table: 'lab', columns: [] }] }
 * ```
 */
export class SqliteReader {
  private readonly databases = new Map<string, Built | string>();
  private readonly size: number;

  /** `size`: how many schemas' databases to keep. */
  constructor(size = 32) {
    this.size = size;
  }

  private build(ddl: string): Built | string {
    const database = new DatabaseSync(':memory:');
    let refused: string | undefined;
    database.setAuthorizer((action, first) => {
      if (schemaActions.has(action)) return constants.SQLITE_OK;
      if (
        (action === constants.SQLITE_INSERT || action === constants.SQLITE_UPDATE) &&
        schemaTables.has(String(first))
      ) {
        return constants.SQLITE_OK;
      }
      refused ??= actionNames.get(action) ?? `action ${action}`;
      return constants.SQLITE_DENY;
    });
    try {
      database.exec(ddl);
    } catch (error) {
      database.close();
      const message = (error as Error).message;
      return refused === undefined
        ? `the schema could not be built: ${message}`
        : `the schema may only create tables, views and indexes; it tried: ${refused}`;
    }
    database.setAuthorizer(null);
    const objects = database.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view')").all() as {
      type: string;
      name: string;
    }[];
    const views = new Set(objects.filter((row) => row.type === 'view').map((row) => row.name.toLowerCase()));
    const columns = new Map(
      objects
        .filter((row) => row.type === 'table')
        .map((row) => [
          row.name.toLowerCase(),
          {
            name: row.name,
            columns: (
              database.prepare('SELECT name FROM pragma_table_info(?)').all(row.name) as { name: string }[]
            ).map((column) => column.name),
          },
        ]),
    );
    const built: Built = { database, ddl, views, columns, variants: new Map(), reads: [], refused: undefined };
    database.setAuthorizer((action, first, second) => {
      if (action === constants.SQLITE_READ) built.reads.push({ table: String(first), column: String(second ?? '') });
      if (queryActions.has(action)) return constants.SQLITE_OK;
      built.refused ??= actionNames.get(action) ?? `action ${action}`;
      return constants.SQLITE_DENY;
    });
    return built;
  }

  private database(schema: SqliteSchema): Built | string {
    const ddl = typeof schema === 'string' ? schema : ddlOf(schema);
    let built = this.databases.get(ddl);
    if (built === undefined) {
      built = this.build(ddl);
      if (this.databases.size >= this.size) {
        const [oldest, value] = this.databases.entries().next().value as [string, Built | string];
        if (typeof value !== 'string') SqliteReader.closeAll(value);
        this.databases.delete(oldest);
      }
      this.databases.set(ddl, built);
    }
    return built;
  }

  /** What `sql` reads in a database with `schema`. Never throws: what cannot be determined is `{ ok: false }`. */
  reads(sql: unknown, schema: SqliteSchema): SqliteReads {
    if (typeof sql !== 'string' || sql.trim() === '' || sql.trim().toLowerCase() === 'null') {
      return {
        ok: false,
        reason: `no query (${JSON.stringify(sql) ?? 'undefined'}): what was read cannot be determined`,
      };
    }
    const built = this.database(schema);
    if (typeof built === 'string') return { ok: false, reason: built };
    built.reads = [];
    built.refused = undefined;
    let source: string;
    try {
      source = built.database.prepare(sql).sourceSQL;
    } catch (error) {
      const message = (error as Error).message;
      return {
        ok: false,
        reason:
          built.refused === undefined
            ? `SQLite refused the query: ${message}`
            : `the statement is not a query: it does ${built.refused}`,
      };
    }
    const start = sql.indexOf(source);
    if (start < 0 || !/^(\s|;|--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)*$/.test(sql.slice(start + source.length))) {
      return { ok: false, reason: 'the text holds more than one statement' };
    }
    const tables = new Map<string, Set<string>>();
    for (const { table, column } of built.reads) {
      const name = table.toLowerCase();
      if (built.views.has(name)) continue;
      // A CTE or subquery read for no column is reported by its own name: it is not a table.
      if (column === '' && !built.columns.has(name) && !name.startsWith('sqlite_')) continue;
      let columns = tables.get(name);
      if (columns === undefined) {
        columns = new Set();
        tables.set(name, columns);
      }
      if (column !== '') columns.add(column.toLowerCase());
    }
    this.addWithdrawn(built, sql, tables);
    return { ok: true, tables: [...tables].map(([table, columns]) => ({ table, columns: [...columns] })) };
  }

  /**
   * What SQLite's authorizer leaves out, found by withdrawing names. A table read for no column is reported late, when
   * SQLite generates code, so a table named only in a part SQLite drops (a subquery whose result is never used) goes
   * unreported; and SQLite builds the comparisons of `USING` and `NATURAL` joins without resolving names, so their
   * columns go unreported. A table the text names but the authorizer did not report, and for joins each column not
   * reported, is withdrawn (renamed in a copy of the database): when the query then no longer prepares, or prepares to
   * another plan or other result columns, it depends on that table or column, which is added as read.
   */
  private addWithdrawn(built: Built, sql: string, tables: Map<string, Set<string>>): void {
    const joins = /\b(using|natural)\b/i.test(sql);
    const text = sql.toLowerCase();
    let own: string | undefined;
    const depends = (key: string, alter: string) => {
      own ??= planOf(built.database, sql);
      let variant = built.variants.get(key);
      if (variant === undefined) {
        variant = new DatabaseSync(':memory:');
        variant.exec(built.ddl);
        try {
          variant.exec(alter);
        } catch {
          variant.close();
          return true;
        }
        built.variants.set(key, variant);
      }
      return planOf(variant, sql) !== own;
    };
    for (const [table, declared] of built.columns) {
      if (!tables.has(table) && text.includes(table)) {
        const alter = `PRAGMA legacy_alter_table = ON; ALTER TABLE ${quote(declared.name)} RENAME TO ${quote(`${declared.name} withdrawn`)}`;
        if (depends(`table ${declared.name}`, alter)) tables.set(table, new Set());
      }
      if (!joins) continue;
      for (const column of declared.columns) {
        if (tables.get(table)?.has(column.toLowerCase())) continue;
        const alter = `ALTER TABLE ${quote(declared.name)} RENAME COLUMN ${quote(column)} TO ${quote(`${column} withdrawn`)}`;
        if (!depends(`column ${declared.name}.${column}`, alter)) continue;
        let read = tables.get(table);
        if (read === undefined) {
          read = new Set();
          tables.set(table, read);
        }
        read.add(column.toLowerCase());
      }
    }
  }

  /** Closes every database kept. */
  close(): void {
    for (const built of this.databases.values()) if (typeof built !== 'string') SqliteReader.closeAll(built);
    this.databases.clear();
  }

  private static closeAll(built: Built): void {
    built.database.close();
    for (const variant of built.variants.values()) variant.close();
  }
}
