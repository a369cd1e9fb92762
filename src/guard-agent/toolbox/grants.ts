import { nodeOf, parsePostgres, stringOf } from './postgres-parser.ts';

/** PostgreSQL's privilege names. */
const privilegeNames = new Set([
  'select',
  'insert',
  'update',
  'delete',
  'truncate',
  'references',
  'trigger',
  'usage',
  'create',
  'connect',
  'temporary',
  'temp',
  'execute',
  'maintain',
  'set',
  'alter system',
]);

/** What one role may read of one table: every column, or the columns listed. */
export interface TablePermission {
  all: boolean;
  columns: Set<string>;
}

/** What one role may read, by table. */
export type Permissions = Map<string, TablePermission>;

/** A problem with one GRANT statement. */
export interface GrantIssue {
  /** 1-based position of the statement. */
  statement: number;
  message: string;
}

/**
 * Reads `GRANT` statements into each role's read permissions (SELECT or ALL, on tables, columns, or all tables of a
 * schema given its tables). Table names lose their schema; names are folded to lower case as PostgreSQL does. Other
 * statements (`GRANT USAGE ON SCHEMA`, other privileges) grant no read access. SQL that does not parse is an issue,
 * and the statements are then not read at all.
 *
 * @example
 * ```ts
 * const { roles } = parseGrants('GRANT SELECT (name) ON hr.head TO analyst;'); // analyst → head → { name }
 * ```
 */
export function parseGrants(
  sql: string,
  schemaTables: Iterable<string> = [],
): { roles: Map<string, Permissions>; issues: GrantIssue[] } {
  const roles = new Map<string, Permissions>();
  const issues: GrantIssue[] = [];
  const parsed = parsePostgres(sql);
  if (!parsed.ok) {
    const statement = sql.slice(0, parsed.position ?? 0).split(';').length;
    return { roles, issues: [{ statement, message: parsed.message }] };
  }
  const tablesOfSchema = [...schemaTables];
  parsed.statements.forEach((statement, index) => {
    const grant = nodeOf(statement);
    if (grant?.[0] !== 'GrantStmt') {
      issues.push({ statement: index + 1, message: `expected a GRANT statement, got ${grant?.[0] ?? 'nothing'}` });
      return;
    }
    const fields = grant[1];
    const unknown = ((fields['privileges'] as { AccessPriv: { priv_name?: string } }[] | undefined) ?? [])
      .map((item) => item.AccessPriv.priv_name ?? '')
      .filter((name) => !privilegeNames.has(name));
    if (unknown.length > 0) {
      issues.push({ statement: index + 1, message: `unrecognized privilege type \`${unknown.join('`, `')}\`` });
      return;
    }
    if (fields['is_grant'] !== true || fields['objtype'] !== 'OBJECT_TABLE') return;
    const granted = fields['privileges'] as { AccessPriv: { priv_name?: string; cols?: unknown[] } }[] | undefined;
    const reads =
      granted === undefined
        ? [{ AccessPriv: {} as { priv_name?: string; cols?: unknown[] } }]
        : granted.filter((item) => item.AccessPriv.priv_name === 'select');
    if (reads.length === 0) return;
    const tables =
      fields['targtype'] === 'ACL_TARGET_ALL_IN_SCHEMA'
        ? tablesOfSchema
        : ((fields['objects'] as { RangeVar?: { relname: string } }[] | undefined) ?? []).flatMap((object) =>
            object.RangeVar === undefined ? [] : [object.RangeVar.relname],
          );
    const grantees = ((fields['grantees'] as { RoleSpec?: { rolename?: string } }[] | undefined) ?? []).flatMap(
      (grantee) => (grantee.RoleSpec?.rolename === undefined ? [] : [grantee.RoleSpec.rolename]),
    );
    for (const role of grantees) {
      const permissions = roles.get(role) ?? new Map<string, TablePermission>();
      roles.set(role, permissions);
      for (const table of tables) {
        const permission = permissions.get(table) ?? { all: false, columns: new Set<string>() };
        permissions.set(table, permission);
        for (const read of reads) {
          const columns = read.AccessPriv.cols
            ?.map(stringOf)
            .filter((column): column is string => column !== undefined);
          if (columns === undefined || columns.length === 0) permission.all = true;
          else for (const column of columns) permission.columns.add(column);
        }
      }
    }
  });
  return { roles, issues };
}
