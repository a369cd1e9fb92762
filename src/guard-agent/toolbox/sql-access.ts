import { nodeOf, type PgNode, parsePostgres, stringOf } from './postgres-parser.ts';
import type { Schema } from './schema.ts';

/** What a query reads of one table. */
export interface TableAccess {
  table: string;
  /** Columns it reads, in the order first met. Empty when it reads none (as `count(*)` does). */
  columns: string[];
}

/**
 * What a query reads, or why that could not be determined. `tables` has each table once; `checks`, where the reader
 * knows them, each reference to a table (a table named twice is checked twice), in the order PostgreSQL checks them.
 */
export type QueryAccess = { ok: true; tables: TableAccess[]; checks?: TableAccess[] } | { ok: false; reason: string };

/** Where a name in FROM leads: a table of the schema, or a derived relation with its output columns. */
interface Source {
  name: string;
  table?: string;
  /** For a table: its place in PostgreSQL's check order. */
  rank?: number;
  columns: readonly string[];
  /** For a derived table: the output columns the query uses (`all` through `*` or a whole-row reference). */
  used?: Set<string> | 'all';
  /** For a derived table or CTE: whether something other than its own LEFT JOIN's condition reads it. */
  usedElsewhere?: boolean;
  /** Set while the condition of the LEFT JOIN that makes this source nullable is read. */
  inOwnJoin?: boolean;
  /** For a derived table or CTE that returns at most one row: what removing it from the plan leaves unchecked. */
  removal?: () => void;
  /** For a derived table whose unused outputs PostgreSQL's planner drops: the table references made in each output. */
  outputRanks?: [number, number][];
}

/**
 * A CTE visible to a query: its output columns, what its query reads, and where it is named (`null` for a place
 * PostgreSQL always plans), which decides whether PostgreSQL checks those reads.
 */
interface Cte {
  columns: readonly string[];
  reads: Reads;
  /** Named from these places; a recursive CTE's reference to itself is not counted. */
  sites: { from: Cte | null; removed: boolean; source?: Source }[];
  /** The table references made in each output column, where the planner may drop unused ones once it inlines. */
  outputRanks: [number, number][];
  /** Inlined where it is named (one reference, not recursive, not MATERIALIZED, no function of unknown volatility). */
  inlined: boolean;
  /** Returns at most one row (aggregates without GROUP BY). */
  oneRow: boolean;
}

/** Table references by their rank: the table and the columns read through that reference. */
type Reads = Map<number, { table: string; columns: Set<string> }>;

interface Scope {
  sources: Source[];
  outer: Scope | undefined;
  ctes: ReadonlyMap<string, Cte>;
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
  const reads: Reads = new Map();
  let sink = reads;
  let site: Cte | null = null;
  const allCtes: Cte[] = [];
  /** A recursive CTE's stand-in for itself inside its own query. */
  const selfReferences = new Map<Cte, Cte>();
  let order = 0;
  /** Marks a column (or, with none, the table itself) as read through a table reference. */
  const need = (source: Source, column?: string) => {
    if (source.used !== undefined && source.inOwnJoin !== true) source.usedElsewhere = true;
    if (column !== undefined && source.used instanceof Set) source.used.add(column);
    if (source.table === undefined || source.rank === undefined) return;
    let entry = sink.get(source.rank);
    if (entry === undefined) {
      entry = { table: source.table, columns: new Set() };
      sink.set(source.rank, entry);
    }
    if (column !== undefined) entry.columns.add(column);
  };
  const needAll = (source: Source) => {
    if (source.used !== undefined && source.inOwnJoin !== true) source.usedElsewhere = true;
    if (source.used !== undefined) source.used = 'all';
    for (const column of source.columns) need(source, column);
  };
  /** Rank ranges of table references made inside expressions PostgreSQL's planner drops before it plans them. */
  const dropped: [number, number][] = [];
  const isDropped = (rank: number) => dropped.some(([from, to]) => rank >= from && rank < to);
  /** Runs a walk, returning the range of ranks of the table references made in it. */
  const ranked = (run: () => void): [number, number] => {
    const from = order;
    run();
    return [from, order];
  };

  const lookup = (scope: Scope | undefined, name: string): Source | undefined => {
    for (let current = scope; current !== undefined; current = current.outer) {
      const found = current.sources.find((source) => source.name === name);
      if (found !== undefined) return found;
    }
    return undefined;
  };

  const resolve = (scope: Scope, fields: unknown[]) => {
    const names = fields.map(stringOf);
    if (fields.some((field) => nodeOf(field)?.[0] === 'A_Star')) {
      const sources = names.length > 1 && names[0] !== undefined ? [lookup(scope, names[0])] : scope.sources;
      for (const source of sources) {
        if (source === undefined) throw new Unresolvable(`\`${names[0]}.*\` names no table of the query`);
        needAll(source);
      }
      return;
    }
    const column = names.at(-1);
    if (column === undefined) return;
    if (names.length >= 2) {
      const source = lookup(scope, names[names.length - 2] as string);
      if (source === undefined) throw new Unresolvable(`\`${names.join('.')}\` names no table of the query`);
      need(source, column);
      return;
    }
    // A bare name is a column of the nearest query level that has one, else a whole row of a FROM item.
    for (let current: Scope | undefined = scope; current !== undefined; current = current.outer) {
      if (current.merged.has(column)) return;
      const matches = current.sources.filter((source) => source.columns.includes(column));
      if (matches.length > 1) throw new Unresolvable(`column \`${column}\` is ambiguous`);
      const [match] = matches;
      if (match !== undefined) {
        need(match, column);
        return;
      }
    }
    const row = lookup(scope, column);
    if (row === undefined) throw new Unresolvable(`column \`${column}\` is in no table of the query`);
    needAll(row);
  };

  /** Walks an expression, resolving its column references and descending into subqueries. */
  const walk = (node: unknown, scope: Scope): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, scope);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const entries = Object.entries(node);
    const [kind, fields] = entries[0] ?? [];
    // A node is `{ Kind: { …fields } }`; anything else (an inline struct such as a window's OVER) is walked whole.
    if (entries.length !== 1 || typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
      for (const [, value] of entries) walk(value, scope);
      return;
    }
    const body = fields as Record<string, unknown>;
    if (kind === 'ColumnRef') {
      resolve(scope, body['fields'] as unknown[]);
      return;
    }
    if (kind === 'SubLink') {
      walk(body['testexpr'], scope);
      select(body['subselect'] as PgNode, scope, scope.ctes, { exists: body['subLinkType'] === 'EXISTS_SUBLINK' });
      return;
    }
    if (kind === 'SelectStmt') {
      select(node as PgNode, scope, scope.ctes);
      return;
    }
    for (const value of Object.values(body)) walk(value, scope);
  };

  /**
   * ORDER BY, DISTINCT ON and GROUP BY items: a bare name of an output column stands for that output, reading
   * nothing more, except that in GROUP BY a column of the query's own FROM comes first.
   */
  const walkItems = (items: unknown, scope: Scope, outputs: readonly string[], inputFirst = false) => {
    for (const item of (items as unknown[] | undefined) ?? []) {
      const entry = nodeOf(item);
      const expression = nodeOf(entry?.[0] === 'SortBy' ? entry[1]['node'] : item);
      const fields = expression?.[0] === 'ColumnRef' ? (expression[1]['fields'] as unknown[]) : [];
      const name = fields.length === 1 ? stringOf(fields[0]) : undefined;
      const input = name !== undefined && inputFirst && scope.sources.some((each) => each.columns.includes(name));
      if (name === undefined || input || !outputs.includes(name)) walk(item, scope);
    }
  };

  /** Reads the CTEs of a WITH clause, each into its own reads, counted only if PostgreSQL checks them. */
  const withCtes = (
    withClause: { ctes?: PgNode[]; recursive?: boolean } | undefined,
    outer: Scope | undefined,
    ctes: ReadonlyMap<string, Cte>,
  ): ReadonlyMap<string, Cte> => {
    if (withClause?.ctes === undefined) return ctes;
    const defined = new Map(ctes);
    for (const node of withClause.ctes) {
      const common = nodeOf(node)?.[1] ?? {};
      const name = common['ctename'] as string;
      const renamed = (common['aliascolnames'] as unknown[] | undefined)
        ?.map(stringOf)
        .filter((item): item is string => item !== undefined);
      const cte: Cte = {
        columns: renamed ?? [],
        reads: new Map(),
        sites: [],
        oneRow: returnsOneRow(common['ctequery'] as PgNode),
        outputRanks: [],
        inlined:
          common['ctematerialized'] !== 'CTEMaterializeAlways' && onlyKnownFunctions(common['ctequery'] as PgNode),
      };
      allCtes.push(cte);
      // In WITH RECURSIVE a CTE may name itself; such a CTE is planned on its own, never inlined.
      const self: Cte = { ...cte, sites: [] };
      if (withClause.recursive === true) selfReferences.set(self, cte);
      const saved = [sink, site] as const;
      [sink, site] = [cte.reads, cte];
      try {
        const output = select(
          common['ctequery'] as PgNode,
          outer,
          withClause.recursive === true ? new Map(defined).set(name, self) : defined,
          { outputRanks: cte.outputRanks },
        );
        if (renamed === undefined) cte.columns = output;
      } finally {
        [sink, site] = saved;
      }
      defined.set(name, cte);
    }
    return defined;
  };

  /** Processes one SELECT and returns its output column names. */
  const select = (
    node: PgNode,
    outer: Scope | undefined,
    ctes: ReadonlyMap<string, Cte>,
    role: { exists?: boolean; outputRanks?: [number, number][] } = {},
  ): string[] => {
    const found = nodeOf(node);
    if (found?.[0] !== 'SelectStmt') throw new Unresolvable(`a ${found?.[0] ?? 'statement'} is not a query`);
    const query = found[1];
    const visible = withCtes(query['withClause'] as { ctes?: PgNode[]; recursive?: boolean } | undefined, outer, ctes);
    if (query['op'] !== undefined && query['op'] !== 'SETOP_NONE') {
      const left = select({ SelectStmt: query['larg'] } as PgNode, outer, visible);
      select({ SelectStmt: query['rarg'] } as PgNode, outer, visible);
      const scope: Scope = { sources: [], outer, ctes: visible, merged: new Set() };
      walkItems(query['sortClause'], scope, left);
      walk(query['limitCount'], scope);
      walk(query['limitOffset'], scope);
      return left;
    }
    const scope: Scope = { sources: [], outer, ctes: visible, merged: new Set() };
    // PostgreSQL checks a query's own tables before those of its subqueries: number them first.
    const ranks: number[] = [];
    const numberTables = (item: unknown): void => {
      const entry = nodeOf(item);
      if (entry?.[0] === 'JoinExpr') {
        numberTables(entry[1]['larg']);
        numberTables(entry[1]['rarg']);
      } else if (entry?.[0] === 'RangeVar') ranks.push(order++);
    };
    for (const item of (query['fromClause'] as unknown[] | undefined) ?? []) numberTables(item);
    const removals: Source[] = [];
    /** Adds a FROM item's sources to the scope, reading its joins' conditions; returns them. */
    const addFrom = (item: unknown): Source[] => {
      const entry = nodeOf(item);
      if (entry === undefined) return [];
      const [kind, fields] = entry;
      const alias = fields['alias'] as { aliasname?: string; colnames?: unknown[] } | undefined;
      const renamed = alias?.colnames?.map(stringOf).filter((name): name is string => name !== undefined);
      let source: Source;
      if (kind === 'RangeVar') {
        const relation = fields['relname'] as string;
        const cte = fields['schemaname'] === undefined ? visible.get(relation) : undefined;
        const tableRank = ranks.shift() ?? order++;
        if (cte !== undefined) {
          const itself = selfReferences.get(cte);
          const place: Cte['sites'][number] = { from: site, removed: false };
          if (itself === undefined) cte.sites.push(place);
          else itself.inlined = false;
          source = { name: alias?.aliasname ?? relation, columns: renamed ?? cte.columns, used: new Set() };
          place.source = source;
          if (cte.oneRow)
            source.removal = () => {
              place.removed = true;
            };
        } else {
          if (!schema.has(relation)) throw new Unresolvable(`table \`${relation}\` is not in the schema`);
          const columns = schema.get(relation) ?? [];
          source = { name: alias?.aliasname ?? relation, table: relation, rank: tableRank, columns };
          need(source);
        }
      } else if (kind === 'JoinExpr') {
        const left = addFrom(fields['larg']);
        const right = addFrom(fields['rarg']);
        const joined = [...left, ...right];
        const columnsOf = (sources: Source[]) => new Set(sources.flatMap((each) => [...each.columns]));
        let using = ((fields['usingClause'] as unknown[] | undefined) ?? [])
          .map(stringOf)
          .filter((name): name is string => name !== undefined);
        if (fields['isNatural'] === true) {
          const leftColumns = columnsOf(left);
          using = [...columnsOf(right)].filter((column) => leftColumns.has(column));
        }
        // The nullable side of a LEFT JOIN, if it returns at most one row, is removed from the plan when nothing
        // but the join's own condition reads it.
        const nullable = { JOIN_LEFT: right, JOIN_RIGHT: left }[fields['jointype'] as string];
        const removable = nullable?.length === 1 && nullable[0]?.removal !== undefined ? nullable[0] : undefined;
        if (removable !== undefined) {
          removable.inOwnJoin = true;
          removals.push(removable);
        }
        for (const column of using) {
          scope.merged.add(column);
          for (const each of joined.filter((candidate) => candidate.columns.includes(column))) need(each, column);
        }
        // An ON condition sees only the two sides of its join (and outer queries).
        walk(fields['quals'], { sources: joined, outer, ctes: visible, merged: scope.merged });
        if (removable !== undefined) removable.inOwnJoin = false;
        return joined;
      } else if (kind === 'RangeSubselect') {
        const outputRanks: [number, number][] = [];
        const lateral = fields['lateral'] === true ? scope : outer;
        let output: string[] = [];
        const range = ranked(() => {
          output = select(fields['subquery'] as PgNode, lateral, visible, { outputRanks });
        });
        source = { name: alias?.aliasname ?? '', columns: renamed ?? output, used: new Set(), outputRanks };
        if (returnsOneRow(fields['subquery'] as PgNode)) source.removal = () => dropped.push(range);
      } else if (kind === 'RangeFunction') {
        walk(fields['functions'], fields['lateral'] === true ? scope : { ...scope, sources: [] });
        source = { name: alias?.aliasname ?? '', columns: renamed ?? [] };
      } else {
        throw new Unresolvable(`\`${kind}\` in FROM is not supported`);
      }
      scope.sources.push(source);
      return [source];
    };
    for (const item of (query['fromClause'] as unknown[] | undefined) ?? []) addFrom(item);
    const targets = (query['targetList'] as unknown[] | undefined) ?? [];
    const outputs = targets.flatMap((target) => {
      const result = nodeOf(target)?.[1] ?? {};
      if (typeof result['name'] === 'string') return [result['name']];
      const value = nodeOf(result['val']);
      if (value?.[0] === 'ColumnRef') {
        const fields = value[1]['fields'] as unknown[];
        if (fields.some((field) => nodeOf(field)?.[0] === 'A_Star')) {
          const qualifier = fields.length > 1 ? stringOf(fields[0]) : undefined;
          const sources =
            qualifier === undefined ? scope.sources : scope.sources.filter((each) => each.name === qualifier);
          return sources.flatMap((each) => [...each.columns]);
        }
        return [stringOf(fields.at(-1)) ?? '?column?'];
      }
      if (value?.[0] === 'FuncCall') return [stringOf((value[1]['funcname'] as unknown[]).at(-1)) ?? '?column?'];
      return ['?column?'];
    });
    // An EXISTS subquery PostgreSQL simplifies loses its select list, grouping and ordering before it is planned.
    const simplified = role.exists === true && existsSimplifies(query);
    const prunable = role.outputRanks !== undefined && outputsPrunable(query);
    for (const target of targets) {
      const range = ranked(() => walk(target, scope));
      if (simplified) dropped.push(range);
      else if (prunable) role.outputRanks?.push(range);
    }
    walk(query['whereClause'], scope);
    walk(query['valuesLists'], scope);
    const ordering = [
      ranked(() => walkItems(query['groupClause'], scope, outputs, true)),
      ranked(() => walk(query['havingClause'], scope)),
      ranked(() => walk(query['windowClause'], scope)),
      ranked(() => walkItems(query['distinctClause'], scope, outputs)),
      ranked(() => walkItems(query['sortClause'], scope, outputs)),
    ];
    if (simplified) dropped.push(...ordering);
    walk(query['limitCount'], scope);
    walk(query['limitOffset'], scope);
    for (const source of removals) if (source.usedElsewhere !== true) source.removal?.();
    // The planner drops a derived table's outputs the query does not use, with the subqueries inside them.
    for (const source of scope.sources) {
      if (source.used === 'all' || source.outputRanks === undefined) continue;
      source.outputRanks.forEach((range, index) => {
        const column = source.columns[index];
        if (column !== undefined && source.used instanceof Set && !source.used.has(column)) dropped.push(range);
      });
    }
    return outputs;
  };

  try {
    for (const statement of parsed.statements) select(statement, undefined, new Map());
  } catch (error) {
    if (error instanceof Unresolvable)
      return { ok: false, reason: `could not determine what the query reads: ${error.message}` };
    throw error;
  }
  // PostgreSQL plans a CTE named nowhere not at all, and one it inlines only where the place naming it is planned.
  const checked = (cte: Cte, seen: Set<Cte>): boolean => {
    if (seen.has(cte) || cte.sites.length === 0) return false;
    if (cte.sites.length > 1 || !cte.inlined) return true;
    seen.add(cte);
    return cte.sites.some((place) => !place.removed && (place.from === null || checked(place.from, seen)));
  };
  // An inlined CTE is a derived table where it is named: the outputs that place does not use are dropped too.
  for (const cte of allCtes) {
    const used = cte.sites[0]?.source?.used;
    const columns = cte.sites[0]?.source?.columns ?? [];
    if (cte.sites.length !== 1 || !cte.inlined || !(used instanceof Set)) continue;
    cte.outputRanks.forEach((range, index) => {
      const column = columns[index];
      if (column !== undefined && !used.has(column)) dropped.push(range);
    });
  }
  // A CTE's tables are checked after those of the query that names it (its plan is a subplan, or pulled up last).
  for (const rank of reads.keys()) if (isDropped(rank)) reads.delete(rank);
  const afterQuery = order;
  for (const cte of allCtes)
    if (checked(cte, new Set()))
      for (const [rank, entry] of cte.reads) if (!isDropped(rank)) reads.set(afterQuery + rank, entry);
  const checks = [...reads.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, entry]) => ({ table: entry.table, columns: [...entry.columns] }));
  const tables = new Map<string, Set<string>>();
  for (const check of checks) {
    const columns = tables.get(check.table) ?? new Set<string>();
    tables.set(check.table, columns);
    for (const column of check.columns) columns.add(column);
  }
  return { ok: true, tables: [...tables].map(([table, columns]) => ({ table, columns: [...columns] })), checks };
}

/** Aggregates and functions PostgreSQL marks immutable or stable: a CTE calling nothing else may be inlined. */
const knownFunctions = new Set(['count', 'sum', 'max', 'min', 'avg', 'abs', 'round', 'lower', 'upper', 'length']);
const windowFunctions = new Set(['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile']);

/** Whether a query calls only functions of known volatility (PostgreSQL does not inline a CTE calling a volatile one). */
function onlyKnownFunctions(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(onlyKnownFunctions);
  if (typeof node !== 'object' || node === null) return true;
  const call = (node as { FuncCall?: { funcname?: unknown[] } }).FuncCall;
  if (call !== undefined) {
    const name = call.funcname?.map(stringOf);
    const last = name?.at(-1) ?? '';
    const schemaOk = name?.length === 1 || (name?.length === 2 && name[0] === 'pg_catalog');
    if (!schemaOk || !(knownFunctions.has(last) || windowFunctions.has(last))) return false;
  }
  return Object.values(node).every(onlyKnownFunctions);
}

/** Function calls outside nested subqueries. */
function calls(node: unknown, found: { name: string; window: boolean }[] = []): { name: string; window: boolean }[] {
  if (Array.isArray(node)) for (const item of node) calls(item, found);
  else if (typeof node === 'object' && node !== null) {
    if ('SubLink' in node) return found;
    const call = (node as { FuncCall?: { funcname?: unknown[]; over?: unknown } }).FuncCall;
    if (call !== undefined)
      found.push({ name: call.funcname?.map(stringOf).join('.') ?? '', window: call.over !== undefined });
    for (const value of Object.values(node)) calls(value, found);
  }
  return found;
}

/** Scalar functions PostgreSQL marks immutable: no aggregate, window or set-returning function among them. */
const scalarFunctions = new Set(['abs', 'round', 'lower', 'upper', 'length']);

/**
 * Whether PostgreSQL simplifies an EXISTS subquery (`simplify_EXISTS_query`): no set operation, aggregate, window
 * function, HAVING, OFFSET or locking, and a LIMIT that is a positive constant if any. A call of a function not known
 * to be scalar counts as an aggregate.
 */
function existsSimplifies(query: Record<string, unknown>): boolean {
  if (query['op'] !== undefined && query['op'] !== 'SETOP_NONE') return false;
  if (query['havingClause'] !== undefined || query['limitOffset'] !== undefined) return false;
  if (query['lockingClause'] !== undefined) return false;
  const limit = query['limitCount'] as { A_Const?: { ival?: { ival?: number } } } | undefined;
  if (limit !== undefined && !((limit.A_Const?.ival?.ival ?? 0) > 0)) return false;
  return calls([query['targetList'], query['sortClause']]).every((call) => scalarFunctions.has(call.name));
}

/**
 * Whether PostgreSQL's planner may drop a derived table's unused outputs (`remove_unused_subquery_outputs`), read
 * narrowly: no set operation, grouping, ordering, DISTINCT or window, no `*`, and only functions of known volatility.
 */
function outputsPrunable(query: Record<string, unknown>): boolean {
  if (query['op'] !== undefined && query['op'] !== 'SETOP_NONE') return false;
  for (const clause of ['groupClause', 'sortClause', 'distinctClause', 'windowClause', 'havingClause'])
    if (query[clause] !== undefined) return false;
  const targets = (query['targetList'] as unknown[] | undefined) ?? [];
  if (JSON.stringify(targets).includes('"A_Star"')) return false;
  return onlyKnownFunctions(targets) && calls(targets).every((call) => !call.window);
}

/** Aggregates PostgreSQL has built in. */
const aggregates = new Set(['count', 'sum', 'max', 'min', 'avg']);

/**
 * Whether a query returns at most one row as PostgreSQL's planner proves it (`query_is_distinct_for`): aggregates or
 * HAVING without GROUP BY or set operation, and only functions of known volatility.
 */
function returnsOneRow(node: PgNode): boolean {
  const query = nodeOf(node)?.[1];
  if (query === undefined || (query['op'] !== undefined && query['op'] !== 'SETOP_NONE')) return false;
  if (query['groupClause'] !== undefined || !onlyKnownFunctions(query['targetList'])) return false;
  const top = calls([query['targetList'], query['havingClause'], query['sortClause']]);
  return query['havingClause'] !== undefined || top.some((call) => aggregates.has(call.name) && !call.window);
}
