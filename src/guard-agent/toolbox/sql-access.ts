import { nodeOf, type PgNode, parsePostgres, stringOf } from './postgres-parser.ts';
import type { Schema } from './schema.ts';

/** What a query reads of one table. */
export interface TableAccess {
  table: string;
  /** Columns it reads, in the order first met. Empty when it reads none (as `count(*)` does). */
  columns: string[];
}

/** What a query reads, or why that could not be determined. */
export type QueryAccess = { ok: true; tables: TableAccess[] } | { ok: false; reason: string };

/** Where a name in FROM leads: a table of the schema, or a derived relation with its output columns. */
interface Source {
  name: string;
  table?: string;
  columns: readonly string[];
}

interface Scope {
  sources: Source[];
  outer: Scope | undefined;
  ctes: ReadonlyMap<string, readonly string[]>;
  /** Output names of the select list, which ORDER BY, GROUP BY and HAVING may use. */
  outputs: Set<string>;
  /** Columns joined with USING: one merged column, read from both sides by the join itself. */
  merged: Set<string>;
}

class Unresolvable extends Error {}

/**
 * Works out which tables and columns a SQL query reads, the way PostgreSQL checks column privileges: through joins,
 * aliases, subqueries in FROM and WHERE, CTEs, set operations, `*` (every column) and aggregates such as `count(*)`
 * (no column). Unqualified columns are resolved with the schema. Tables are listed in the order PostgreSQL's
 * range table would list them: a query's own FROM tables first, then those of its subqueries. SQL that does not
 * parse, a statement that is not a query, or a column that resolves to no table or to several, comes back as a reason:
 * the caller must deny, since what the query reads is unknown.
 *
 * @example
 * ```ts
 * extractAccess('SELECT T1.name FROM head AS T1 WHERE age > 56', schema); // { ok: true, tables: [{ table: 'head', columns: ['name', 'age'] }] }
 * ```
 */
export function extractAccess(sql: string, schema: Schema): QueryAccess {
  const parsed = parsePostgres(sql);
  if (!parsed.ok) {
    const at = parsed.position === undefined ? '' : ` at character ${parsed.position + 1}`;
    return { ok: false, reason: `could not determine what the query reads: ${parsed.message}${at}` };
  }
  if (parsed.statements.length === 0)
    return { ok: false, reason: 'could not determine what the query reads: no statement' };
  const reads = new Map<string, { columns: Set<string>; order: number }>();
  let order = 0;
  const need = (table: string, column: string | undefined, rank: number) => {
    let entry = reads.get(table);
    if (entry === undefined) {
      entry = { columns: new Set(), order: rank };
      reads.set(table, entry);
    }
    if (column !== undefined) entry.columns.add(column);
  };

  const lookup = (scope: Scope | undefined, name: string): Source | undefined => {
    for (let current = scope; current !== undefined; current = current.outer) {
      const found = current.sources.find((source) => source.name === name);
      if (found !== undefined) return found;
    }
    return undefined;
  };

  const resolve = (scope: Scope, fields: unknown[], rank: Map<Source, number>, inOutputClause: boolean) => {
    const names = fields.map(stringOf);
    const star = fields.some((field) => nodeOf(field)?.[0] === 'A_Star');
    if (star) {
      const sources = names.length > 1 && names[0] !== undefined ? [lookup(scope, names[0])] : scope.sources;
      for (const source of sources) {
        if (source === undefined) throw new Unresolvable(`\`${names[0]}.*\` names no table of the query`);
        if (source.table !== undefined)
          for (const column of source.columns) need(source.table, column, rank.get(source) ?? 0);
      }
      return;
    }
    const column = names.at(-1);
    if (column === undefined) return;
    if (names.length >= 2) {
      const source = lookup(scope, names[names.length - 2] as string);
      if (source === undefined) throw new Unresolvable(`\`${names.join('.')}\` names no table of the query`);
      if (source.table !== undefined) need(source.table, column, rank.get(source) ?? 0);
      return;
    }
    for (let current: Scope | undefined = scope; current !== undefined; current = current.outer) {
      if (current.merged.has(column)) return;
      const matches = current.sources.filter((source) => source.columns.includes(column));
      if (matches.length > 1) throw new Unresolvable(`column \`${column}\` is ambiguous`);
      const [match] = matches;
      if (match !== undefined) {
        if (match.table !== undefined) need(match.table, column, rank.get(match) ?? 0);
        return;
      }
      if (current === scope && inOutputClause && current.outputs.has(column)) return;
    }
    throw new Unresolvable(`column \`${column}\` is in no table of the query`);
  };

  /** Walks an expression, resolving its column references and descending into subqueries. */
  const walk = (node: unknown, scope: Scope, rank: Map<Source, number>, inOutputClause = false): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, scope, rank, inOutputClause);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const entries = Object.entries(node);
    const [kind, fields] = entries[0] ?? [];
    // A node is `{ Kind: { …fields } }`; anything else (an inline struct such as a window's OVER) is walked whole.
    if (entries.length !== 1 || typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
      for (const [, value] of entries) walk(value, scope, rank, inOutputClause);
      return;
    }
    const body = fields as Record<string, unknown>;
    if (kind === 'ColumnRef') {
      resolve(scope, body['fields'] as unknown[], rank, inOutputClause);
      return;
    }
    if (kind === 'SubLink') {
      walk(body['testexpr'], scope, rank, inOutputClause);
      select(body['subselect'] as PgNode, scope, scope.ctes);
      return;
    }
    if (kind === 'SelectStmt') {
      select(node as PgNode, scope, scope.ctes);
      return;
    }
    for (const value of Object.values(body)) walk(value, scope, rank, inOutputClause);
  };

  /** Processes one SELECT and returns its output column names. */
  const select = (node: PgNode, outer: Scope | undefined, ctes: ReadonlyMap<string, readonly string[]>): string[] => {
    const found = nodeOf(node);
    if (found?.[0] !== 'SelectStmt') throw new Unresolvable(`a ${found?.[0] ?? 'statement'} is not a query`);
    const query = found[1];
    const withClause = query['withClause'] as { WithClause?: { ctes?: PgNode[] } } | { ctes?: PgNode[] } | undefined;
    let visible = ctes;
    const cteList =
      (withClause as { ctes?: PgNode[] } | undefined)?.ctes ??
      (withClause as { WithClause?: { ctes?: PgNode[] } } | undefined)?.WithClause?.ctes;
    if (cteList !== undefined) {
      const defined = new Map(ctes);
      for (const cte of cteList) {
        const common = nodeOf(cte)?.[1] ?? {};
        const name = common['ctename'] as string;
        const renamed = (common['aliascolnames'] as unknown[] | undefined)
          ?.map(stringOf)
          .filter((item): item is string => item !== undefined);
        // A recursive CTE reads itself: its name is known, with its declared columns, while its query is read.
        if (
          common['cterecursive'] === true ||
          (withClause as { recursive?: boolean } | undefined)?.recursive === true
        ) {
          defined.set(name, renamed ?? []);
        }
        const output = select(common['ctequery'] as PgNode, outer, defined);
        defined.set(name, renamed ?? output);
      }
      visible = defined;
    }
    if (query['op'] !== undefined && query['op'] !== 'SETOP_NONE') {
      const left = select({ SelectStmt: query['larg'] } as PgNode, outer, visible);
      select({ SelectStmt: query['rarg'] } as PgNode, outer, visible);
      const scope: Scope = { sources: [], outer, ctes: visible, outputs: new Set(left), merged: new Set() };
      walk(query['sortClause'], scope, new Map(), true);
      return left;
    }
    const scope: Scope = { sources: [], outer, ctes: visible, outputs: new Set(), merged: new Set() };
    const rank = new Map<Source, number>();
    const nested: (() => void)[] = [];
    const joins: unknown[] = [];
    const addFrom = (item: unknown) => {
      const entry = nodeOf(item);
      if (entry === undefined) return;
      const [kind, fields] = entry;
      if (kind === 'RangeVar') {
        const relation = fields['relname'] as string;
        const alias = (fields['alias'] as { aliasname?: string } | undefined)?.aliasname;
        const cte = fields['schemaname'] === undefined ? visible.get(relation) : undefined;
        const source: Source =
          cte !== undefined
            ? { name: alias ?? relation, columns: cte }
            : { name: alias ?? relation, table: relation, columns: schema.get(relation) ?? [] };
        scope.sources.push(source);
        if (source.table !== undefined) {
          rank.set(source, order++);
          if (!schema.has(relation)) throw new Unresolvable(`table \`${relation}\` is not in the schema`);
          need(relation, undefined, rank.get(source) ?? 0);
        }
      } else if (kind === 'JoinExpr') {
        const start = scope.sources.length;
        addFrom(fields['larg']);
        const middle = scope.sources.length;
        addFrom(fields['rarg']);
        joins.push(fields['quals']);
        let using = (fields['usingClause'] as unknown[] | undefined)?.map(stringOf) ?? [];
        if (fields['isNatural'] === true) {
          // NATURAL joins on every column name both sides have (subqueries' columns are known only later).
          const left = new Set(scope.sources.slice(start, middle).flatMap((source) => [...source.columns]));
          using = [...new Set(scope.sources.slice(middle).flatMap((source) => [...source.columns]))].filter((column) =>
            left.has(column),
          );
        }
        for (const column of using) {
          if (column !== undefined) scope.merged.add(column);
          joins.push({ UsingColumn: column });
        }
      } else if (kind === 'RangeSubselect') {
        const alias = fields['alias'] as { aliasname?: string; colnames?: unknown[] } | undefined;
        const source: Source = { name: alias?.aliasname ?? '', columns: [] };
        scope.sources.push(source);
        nested.push(() => {
          const output = select(fields['subquery'] as PgNode, fields['lateral'] === true ? scope : outer, visible);
          source.columns =
            alias?.colnames?.map(stringOf).filter((item): item is string => item !== undefined) ?? output;
        });
      } else if (kind === 'RangeFunction') {
        const alias = fields['alias'] as { aliasname?: string; colnames?: unknown[] } | undefined;
        scope.sources.push({
          name: alias?.aliasname ?? '',
          columns: alias?.colnames?.map(stringOf).filter((item): item is string => item !== undefined) ?? [],
        });
        joins.push(fields['functions']);
      } else {
        throw new Unresolvable(`\`${kind}\` in FROM is not supported`);
      }
    };
    for (const item of (query['fromClause'] as unknown[] | undefined) ?? []) addFrom(item);
    for (const run of nested) run();
    for (const target of (query['targetList'] as unknown[] | undefined) ?? []) {
      const name = (nodeOf(target)?.[1]['name'] as string | undefined) ?? undefined;
      if (name !== undefined) scope.outputs.add(name);
    }
    for (const join of joins) {
      const using = (join as { UsingColumn?: string } | undefined)?.UsingColumn;
      if (using !== undefined) {
        for (const source of scope.sources.filter((candidate) => candidate.columns.includes(using))) {
          if (source.table !== undefined) need(source.table, using, rank.get(source) ?? 0);
        }
      } else walk(join, scope, rank);
    }
    walk(query['targetList'], scope, rank);
    walk(query['whereClause'], scope, rank);
    walk(query['valuesLists'], scope, rank);
    walk(query['groupClause'], scope, rank, true);
    walk(query['havingClause'], scope, rank, true);
    walk(query['windowClause'], scope, rank);
    walk(query['distinctClause'], scope, rank);
    walk(query['sortClause'], scope, rank, true);
    walk(query['limitCount'], scope, rank);
    walk(query['limitOffset'], scope, rank);
    return ((query['targetList'] as unknown[] | undefined) ?? []).flatMap((target) => {
      const result = nodeOf(target)?.[1] ?? {};
      if (typeof result['name'] === 'string') return [result['name']];
      const value = nodeOf(result['val']);
      if (value?.[0] === 'ColumnRef') {
        const fields = value[1]['fields'] as unknown[];
        if (fields.some((field) => nodeOf(field)?.[0] === 'A_Star'))
          return scope.sources.flatMap((source) => [...source.columns]);
        return [stringOf(fields.at(-1)) ?? '?column?'];
      }
      if (value?.[0] === 'FuncCall') return [stringOf((value[1]['funcname'] as unknown[]).at(-1)) ?? '?column?'];
      return ['?column?'];
    });
  };

  try {
    for (const statement of parsed.statements) select(statement, undefined, new Map());
  } catch (error) {
    if (error instanceof Unresolvable)
      return { ok: false, reason: `could not determine what the query reads: ${error.message}` };
    throw error;
  }
  return {
    ok: true,
    tables: [...reads.entries()]
      .sort((a, b) => a[1].order - b[1].order)
      .map(([table, entry]) => ({ table, columns: [...entry.columns] })),
  };
}
