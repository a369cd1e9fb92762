import { foldIdentifier, readPastedSql } from './pasted-sql.ts';
import { nodeOf, stringOf } from './postgres-parser.ts';

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

/** The grants read from SQL text. */
export interface Grants {
  /** What each role named in the text holds itself, by role (`public` for PUBLIC). */
  roles: Map<string, Permissions>;
  issues: GrantIssue[];
  /**
   * What a role may read: its own grants, those of the roles it is a member of (inherited, as by default), and
   * PUBLIC's. The role is looked up as given, then folded to lower case as PostgreSQL folds an unquoted name.
   */
  permissionsOf(role: string): Permissions;
}

type Privilege = { priv_name?: string; cols?: unknown[] };

function merge(into: Permissions, from: Permissions | undefined): void {
  for (const [table, permission] of from ?? []) {
    const target = into.get(table) ?? { all: false, columns: new Set<string>() };
    into.set(table, target);
    target.all ||= permission.all;
    for (const column of permission.columns) target.columns.add(column);
  }
}

/**
 * Reads `GRANT` and `REVOKE` statements, as a person pastes them (reserved words such as `end` unquoted in column
 * lists: see `readPastedSql`), into each role's read permissions, as PostgreSQL keeps them: SELECT or ALL on tables,
 * on columns, or on all tables of a schema given its tables; PUBLIC; role membership (`GRANT reader TO analyst`).
 * Revoking a table's privilege revokes its column privileges too; revoking a column's leaves the table's. Table
 * names lose their schema; unquoted names are folded to lower case. Other privileges and objects grant no read
 * access. A statement that cannot be read, or of another kind, is an issue: the caller should then deny.
 *
 * @example
 * ```ts
 * const grants = parseGrants('GRANT SELECT (name, end) ON hr.head TO analyst;'); // analyst → head → { name, end }
 * grants.permissionsOf('Analyst');
 * ```
 */
export function parseGrants(sql: string, schemaTables: Iterable<string> = []): Grants {
  const roles = new Map<string, Permissions>();
  const memberOf = new Map<string, Map<string, boolean>>();
  const issues: GrantIssue[] = [];
  const tablesOfSchema = [...schemaTables];
  readPastedSql(sql).forEach((statement, index) => {
    if (!statement.ok) {
      issues.push({ statement: index + 1, message: statement.message });
      return;
    }
    const grant = nodeOf(statement.node);
    const roleNames = (list: unknown) =>
      ((list as { RoleSpec?: { rolename?: string; roletype?: string } }[] | undefined) ?? []).flatMap(
        ({ RoleSpec }) => {
          if (RoleSpec?.roletype === 'ROLESPEC_PUBLIC') return ['public'];
          return RoleSpec?.rolename === undefined ? [] : [RoleSpec.rolename];
        },
      );
    if (grant?.[0] === 'GrantRoleStmt') {
      const granted = (grant[1]['granted_roles'] as { AccessPriv?: { priv_name?: string } }[] | undefined) ?? [];
      const options = ((grant[1]['opt'] as { DefElem?: { defname?: string; arg?: unknown } }[] | undefined) ?? []).map(
        (option) => option.DefElem,
      );
      const inherit = options.find((option) => option?.defname === 'inherit');
      const inherits = (inherit?.arg as { Boolean?: { boolval?: boolean } } | undefined)?.Boolean?.boolval !== false;
      for (const member of roleNames(grant[1]['grantee_roles'])) {
        const groups = memberOf.get(member) ?? new Map<string, boolean>();
        memberOf.set(member, groups);
        for (const name of granted.flatMap((role) => role.AccessPriv?.priv_name ?? [])) {
          // A grant's unnamed options keep what an earlier grant set; revoking only another option keeps inheritance.
          if (grant[1]['is_grant'] === true)
            groups.set(name, inherit === undefined ? (groups.get(name) ?? true) : inherits);
          else if (options.length === 0) groups.delete(name);
          else if (inherit !== undefined) groups.set(name, false);
        }
      }
      return;
    }
    if (grant?.[0] !== 'GrantStmt') {
      issues.push({ statement: index + 1, message: `expected a GRANT statement, got ${grant?.[0] ?? 'nothing'}` });
      return;
    }
    const fields = grant[1];
    const privileges = (fields['privileges'] as { AccessPriv: Privilege }[] | undefined)?.map(
      (item) => item.AccessPriv,
    );
    const unknown = (privileges ?? []).map((item) => item.priv_name ?? '').filter((name) => !privilegeNames.has(name));
    if (unknown.length > 0) {
      issues.push({ statement: index + 1, message: `unrecognized privilege type \`${unknown.join('`, `')}\`` });
      return;
    }
    // Revoking only the grant option leaves the privilege.
    if (fields['objtype'] !== 'OBJECT_TABLE' || fields['grant_option'] === true) return;
    const reads = privileges === undefined ? [{}] : privileges.filter((item) => item.priv_name === 'select');
    if (reads.length === 0) return;
    const tables =
      fields['targtype'] === 'ACL_TARGET_ALL_IN_SCHEMA'
        ? tablesOfSchema
        : ((fields['objects'] as { RangeVar?: { relname: string } }[] | undefined) ?? []).flatMap((object) =>
            object.RangeVar === undefined ? [] : [object.RangeVar.relname],
          );
    for (const role of roleNames(fields['grantees'])) {
      const permissions = roles.get(role) ?? new Map<string, TablePermission>();
      roles.set(role, permissions);
      for (const table of tables) {
        const permission = permissions.get(table) ?? { all: false, columns: new Set<string>() };
        permissions.set(table, permission);
        for (const read of reads) {
          const columns = read.cols?.map(stringOf).filter((column): column is string => column !== undefined) ?? [];
          if (fields['is_grant'] === true) {
            if (columns.length === 0) permission.all = true;
            else for (const column of columns) permission.columns.add(column);
          } else if (columns.length === 0) permissions.delete(table);
          else for (const column of columns) permission.columns.delete(column);
        }
      }
    }
  });
  const permissionsOf = (role: string): Permissions => {
    const name = roles.has(role) || memberOf.has(role) ? role : foldIdentifier(role);
    const effective: Permissions = new Map();
    const seen = new Set<string>();
    const visit = (current: string) => {
      if (seen.has(current)) return;
      seen.add(current);
      merge(effective, roles.get(current));
      for (const [group, inherited] of memberOf.get(current) ?? []) if (inherited) visit(group);
    };
    visit(name);
    visit('public');
    return effective;
  };
  return { roles, issues, permissionsOf };
}
