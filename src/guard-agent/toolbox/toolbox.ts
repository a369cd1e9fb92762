import { type AccessDecision, checkAccess } from './check-access.ts';
import { checkRule, type Rule, type RuleDecision } from './check-rule.ts';
import { type Grants, type Permissions, parseGrants } from './grants.ts';
import { schemaFromDdl } from './schema.ts';
import { extractAccess, type QueryAccess } from './sql-access.ts';
import { SqliteReader, type SqliteReads, type SqliteSchema } from './sqlite-reads.ts';

/**
 * The functions guard code may call: the GuardAgent paper's CheckAccess and CheckRule, and the SQL helpers they rest
 * on. Parses of the same schema or grants text are reused, so a program called per request pays for them once.
 */
export interface Toolbox {
  checkAccess(allowed: Permissions, needed: Parameters<typeof checkAccess>[1]): AccessDecision;
  checkRule(
    rules: Readonly<Record<string, Rule | readonly Rule[]>>,
    user: Readonly<Record<string, unknown>>,
  ): RuleDecision;
  /** What a SQL query reads, given the tables and columns of its database. */
  queryAccess(sql: string, schema: ReadonlyMap<string, readonly string[]>): QueryAccess;
  /** What a SQLite query reads, resolved by SQLite itself (see `SqliteReader`). */
  sqliteReads(sql: unknown, schema: SqliteSchema): SqliteReads;
  /** Roles' read permissions from GRANT and REVOKE statements. */
  grants(sql: string, tables?: Iterable<string>): Grants;
  /** Tables and columns from CREATE TABLE statements. */
  schema(ddl: string): { schema: Map<string, string[]>; issues: string[] };
  /** Read permissions from a map of tables to readable columns. */
  permissions(readable: Readonly<Record<string, readonly string[]>>): Permissions;
}

function memoized<Result>(compute: (text: string) => Result, size = 256): (text: string) => Result {
  const cache = new Map<string, Result>();
  return (text) => {
    let result = cache.get(text);
    if (result === undefined) {
      result = compute(text);
      if (cache.size >= size) cache.delete(cache.keys().next().value as string);
      cache.set(text, result);
    }
    return result;
  };
}

/**
 * Makes the toolbox. Call `loadPostgresParser()` first.
 *
 * @example
 * ```ts
 * const toolbox = createToolbox();
 * const decision = toolbox.checkAccess(toolbox.permissions({ head: ['name'] }), [{ table: 'head', columns: ['age'] }]);
 * ```
 */
export function createToolbox(): Toolbox {
  const schema = memoized(schemaFromDdl);
  const grantsByText = new Map<string, ReturnType<typeof parseGrants>>();
  const sqlite = new SqliteReader();
  return {
    checkAccess,
    checkRule,
    queryAccess: extractAccess,
    sqliteReads: (sql, schema) => sqlite.reads(sql, schema),
    schema,
    grants(sql, tables = []) {
      const list = [...tables];
      const key = `${list.join(',')}\u0000${sql}`;
      let parsed = grantsByText.get(key);
      if (parsed === undefined) {
        parsed = parseGrants(sql, list);
        if (grantsByText.size >= 256) grantsByText.delete(grantsByText.keys().next().value as string);
        grantsByText.set(key, parsed);
      }
      return parsed;
    },
    permissions(readable) {
      return new Map(
        Object.entries(readable).map(([table, columns]) => [
          table.toLowerCase(),
          { all: false, columns: new Set(columns.map((column) => column.toLowerCase())) },
        ]),
      );
    },
  };
}
