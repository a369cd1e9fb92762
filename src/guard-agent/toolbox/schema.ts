import { readPastedSql } from './pasted-sql.ts';
import { nodeOf, type PgNode } from './postgres-parser.ts';

/** Tables and their columns, named as PostgreSQL names them (unquoted names folded to lower case). */
export type Schema = ReadonlyMap<string, readonly string[]>;

/**
 * Reads the tables and columns of `CREATE TABLE` statements as a person pastes them: PostgreSQL's parser reads each
 * statement, with the names a dump prints bare (reserved words such as `end` or `from`) quoted where they stand as
 * identifiers (see `readPastedSql`). A table keeps its name without its schema; a name declared twice is reported
 * and left out, so that queries reading it are undetermined. A statement that cannot be read is reported. Statements
 * of other kinds are ignored.
 *
 * @example
 * ```ts
 * const { schema } = schemaFromDdl('CREATE TABLE trip (trip_id bigint, start integer, end integer);'); // trip → [trip_id, start, end]
 * ```
 */
export function schemaFromDdl(ddl: string): { schema: Map<string, string[]>; issues: string[] } {
  const schema = new Map<string, string[]>();
  const declared = new Map<string, number>();
  const issues: string[] = [];
  readPastedSql(ddl).forEach((statement, index) => {
    if (!statement.ok) {
      issues.push(`statement ${index + 1}: ${statement.message} in \`${statement.text.slice(0, 60)}\``);
      return;
    }
    const create = nodeOf(statement.node);
    if (create?.[0] !== 'CreateStmt') return;
    const name = (create[1]['relation'] as { relname: string }).relname;
    const elements = ((create[1]['tableElts'] as PgNode[] | undefined) ?? []).map((element) => nodeOf(element));
    // Columns copied from elsewhere (LIKE, INHERITS, PARTITION OF, OF type) are not in the text: the table is unknown.
    const copied = elements.some((element) => element?.[0] === 'TableLikeClause');
    if (copied || ['inhRelations', 'partbound', 'ofTypename'].some((field) => create[1][field] !== undefined)) {
      issues.push(`statement ${index + 1}: the columns of \`${name}\` come from another table or type, not read`);
      return;
    }
    const columns = elements
      .filter((element) => element?.[0] === 'ColumnDef')
      .map((element) => element?.[1]['colname'] as string);
    declared.set(name, (declared.get(name) ?? 0) + 1);
    schema.set(name, columns);
  });
  for (const [name, count] of declared) {
    if (count < 2) continue;
    issues.push(`table \`${name}\` is declared ${count} times; its reads cannot be determined`);
    schema.delete(name);
  }
  return { schema, issues };
}
