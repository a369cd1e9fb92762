import { nodeOf, type PgNode, parsePostgres } from './postgres-parser.ts';

/** Tables and their columns, lower case, as PostgreSQL folds unquoted names. */
export type Schema = ReadonlyMap<string, readonly string[]>;

/** Reads a CREATE TABLE that PostgreSQL's parser refuses: the name, then the first word of each column definition. */
function tolerantCreate(statement: string): [string, string[]] | undefined {
  const match = /create\s+table\s+(?:if\s+not\s+exists\s+)?(?:"?\w+"?\.)?"?(\w+)"?\s*\(([\s\S]*)\)\s*$/i.exec(
    statement.trim(),
  );
  if (match === undefined || match === null) return undefined;
  const columns: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of `${match[2]},`) {
    if (character === '(') depth++;
    if (character === ')') depth--;
    if (character === ',' && depth === 0) {
      const name = current.trim().split(/\s+/)[0] ?? '';
      if (name !== '' && !/^(primary|foreign|unique|constraint|check)$/i.test(name))
        columns.push(name.replaceAll('"', '').toLowerCase());
      current = '';
    } else current += character;
  }
  return [(match[1] ?? '').toLowerCase(), columns];
}

/**
 * Reads the tables and columns of `CREATE TABLE` statements with PostgreSQL's parser, statement by statement. A
 * statement the parser refuses (a column name PostgreSQL would need quoted, say) is read leniently and reported.
 * Statements of other kinds are ignored.
 *
 * @example
 * ```ts
 * const { schema } = schemaFromDdl('CREATE TABLE head (head_id bigint, name text);'); // head → [head_id, name]
 * ```
 */
export function schemaFromDdl(ddl: string): { schema: Map<string, string[]>; issues: string[] } {
  const schema = new Map<string, string[]>();
  const issues: string[] = [];
  for (const statement of ddl.split(';').filter((text) => text.trim() !== '')) {
    const parsed = parsePostgres(statement);
    if (!parsed.ok) {
      const read = tolerantCreate(statement);
      issues.push(
        `${parsed.message} in \`${statement.trim().slice(0, 60)}…\`${read === undefined ? '' : '; read leniently'}`,
      );
      if (read !== undefined) schema.set(read[0], read[1]);
      continue;
    }
    for (const node of parsed.statements) {
      const create = nodeOf(node);
      if (create?.[0] !== 'CreateStmt') continue;
      const relation = create[1]['relation'] as { relname: string };
      const columns = ((create[1]['tableElts'] as PgNode[] | undefined) ?? [])
        .map((element) => nodeOf(element))
        .filter((element) => element?.[0] === 'ColumnDef')
        .map((element) => element?.[1]['colname'] as string);
      schema.set(relation.relname, columns);
    }
  }
  return { schema, issues };
}
