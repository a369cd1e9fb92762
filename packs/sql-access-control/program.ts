/**
 * SQL access control, compiled: grant a query only when it reads nothing but tables and columns the user's role may
 * read. The role's permissions come from GRANT statements (with `role`) or a map of readable columns; the schema, to
 * resolve unqualified columns, from CREATE TABLE statements or a map of tables to columns. With `dialect: 'sqlite'` the
 * query is resolved by SQLite itself, else by PostgreSQL's parser. A query whose reads cannot be determined is denied.
 */
import type { GuardProgram, Permissions } from 'agentguard';

interface AccessInput {
  role?: string;
  grants?: string;
  permissions?: Record<string, string[]>;
  schema?: string | Record<string, string[]>;
  dialect?: 'postgresql' | 'sqlite';
}

export const program: GuardProgram = (task, toolbox) => {
  const input = (task.input ?? {}) as AccessInput;
  const query = typeof task.output === 'string' ? task.output : (task.output as { query?: unknown } | null)?.query;
  if (typeof query !== 'string') return { abstain: 'the agent output carries no SQL query' };
  if (input.schema === undefined) return { abstain: 'no schema to resolve the query against' };
  const schema =
    typeof input.schema === 'string'
      ? toolbox.schema(input.schema).schema
      : new Map(
          Object.entries(input.schema).map(([table, columns]) => [
            table.toLowerCase(),
            columns.map((column) => column.toLowerCase()),
          ]),
        );
  let allowed: Permissions;
  if (input.permissions !== undefined) allowed = toolbox.permissions(input.permissions);
  else if (typeof input.grants === 'string' && typeof input.role === 'string') {
    const grants = toolbox.grants(input.grants, schema.keys());
    if (grants.issues.length > 0) {
      const message = `the grants could not be read: ${grants.issues.map((issue) => `statement ${issue.statement}: ${issue.message}`).join('; ')}`;
      return { label: 1, reasons: [{ kind: 'undetermined', message }], guardedOutput: null };
    }
    allowed = grants.permissionsOf(input.role);
  } else return { abstain: 'no permissions: give grants and a role, or a map of readable columns' };
  const access =
    input.dialect === 'sqlite' ? toolbox.sqliteReads(query, input.schema) : toolbox.queryAccess(query, schema);
  if (!access.ok) return { label: 1, reasons: [{ kind: 'undetermined', message: access.reason }], guardedOutput: null };
  // PostgreSQL checks each reference to a table in its own order; SQLite reports the reads themselves.
  const needed = 'checks' in access && Array.isArray(access.checks) ? access.checks : access.tables;
  const decision = toolbox.checkAccess(allowed, needed);
  if (!decision.denied) return { label: 0, reasons: [], guardedOutput: task.output };
  return {
    label: 1,
    reasons: decision.inaccessible.map(({ table, columns }) => ({ kind: 'access', table, columns })),
    guardedOutput: null,
  };
};
