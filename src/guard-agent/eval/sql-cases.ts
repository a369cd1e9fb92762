import { scanSync } from 'libpg-query';

/** A seeded source of random choices (mulberry32), so that a run can be repeated from its seed. */
export class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  /** A number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let value = this.#state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, below). */
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  pick<Item>(items: readonly Item[]): Item {
    return items[this.int(items.length)] as Item;
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
}

/** A generated table: its name and columns exactly as PostgreSQL stores them. */
export interface CaseTable {
  name: string;
  columns: string[];
}

/** A generated database: the SQL PostgreSQL runs to build it, and the same schema and grants as a person pastes them. */
export interface CaseDatabase {
  schemaName: string;
  tables: CaseTable[];
  roles: string[];
  /** CREATE SCHEMA, tables, roles and grants, every name quoted as PostgreSQL needs. */
  setup: string;
  /** The CREATE TABLE statements as a dump prints them: reserved words and odd names bare, mixed case, qualified. */
  pastedSchema: string;
  /** The GRANT and REVOKE statements as pasted: reserved-word columns bare. */
  pastedGrants: string;
}

const plainNames = [
  'id',
  'name',
  'age',
  'city',
  'score',
  'price',
  'amount',
  'title',
  'total',
  'code',
  'kind',
  'status',
];
/** Words PostgreSQL's grammar reserves or restricts, as Spider-AC's dumps print them for column names. */
const keywordNames = [
  'end',
  'from',
  'order',
  'user',
  'select',
  'group',
  'limit',
  'check',
  'primary',
  'table',
  'column',
  'default',
  'offset',
  'desc',
  'all',
  'case',
  'to',
  'when',
  'only',
  'left',
  'right',
  'join',
  'natural',
  'inner',
  'is',
  'verbose',
  'position',
  'time',
  'values',
  'year',
  'type',
  'date',
  'text',
  'constraint',
  'unique',
  'foreign',
  'references',
];
const oddNames = ['ratings_(millions)', 'FirstName', 'Total Amount', 'unit-price', '%_change_2007', '2007_total'];
const tableNames = [
  'head',
  'department',
  'orders',
  'items',
  'trip',
  'people',
  'show',
  'order',
  'user',
  'group',
  'Staff',
];
const types = ['integer', 'bigint', 'smallint', 'double precision', 'numeric', 'real'];

const keywordKinds = new Map<string, number>();
/** The parser's own classification of a word: 0 for no keyword, 1 unreserved, higher for restricted ones. */
function keywordKind(word: string): number {
  let kind = keywordKinds.get(word);
  if (kind === undefined) {
    const [token] = scanSync(word).tokens;
    kind = token !== undefined && token.end === word.length ? token.keywordKind : 0;
    keywordKinds.set(word, kind);
  }
  return kind;
}

const simple = (name: string) => /^[a-z_][a-z0-9_$]*$/.test(name);
/** A name as PostgreSQL needs it written where any identifier may stand. */
export function quoteIdentifier(name: string): string {
  return simple(name) && keywordKind(name) <= 1 ? name : `"${name.replaceAll('"', '""')}"`;
}

/** A name as a person might write it: quoted when needed, else in any letter case, sometimes quoted anyway. */
function written(random: Random, name: string, afterDot = false): string {
  if (!simple(name)) return `"${name}"`;
  if (keywordKind(name) > 1 && !afterDot) return `"${name}"`;
  if (random.chance(0.15)) return `"${name}"`;
  if (random.chance(0.2)) return name.toUpperCase();
  if (random.chance(0.1)) return name.charAt(0).toUpperCase() + name.slice(1);
  return name;
}

/** A name as a dump prints it: bare unless its letter case or a space would change it. */
function dumped(name: string): string {
  return /[A-Z\s"]/.test(name) ? `"${name}"` : name;
}

/** Generates one database with its tables, roles and grants. */
export function generateDatabase(random: Random, index: number): CaseDatabase {
  const schemaName = `db${index}`;
  const tables: CaseTable[] = [];
  const tableCount = 2 + random.int(3);
  const available = [...tableNames];
  for (let table = 0; table < tableCount; table++) {
    const name = available.splice(random.int(available.length), 1)[0] as string;
    const columns = new Set<string>();
    const width = 2 + random.int(5);
    while (columns.size < width) {
      const pool = random.chance(0.55) ? plainNames : random.chance(0.85) ? keywordNames : oddNames;
      columns.add(random.pick(pool));
    }
    tables.push({ name, columns: [...columns] });
  }
  const roles = [1, 2, 3].map((number) => `${schemaName}_user_${number}`);
  const typeOf = new Map(tables.flatMap((table) => table.columns.map((column) => [column, random.pick(types)])));
  const engine: string[] = [`CREATE SCHEMA ${schemaName}`];
  const pastedSchema: string[] = [];
  for (const table of tables) {
    const qualified = `${schemaName}.${quoteIdentifier(table.name)}`;
    const definitions = table.columns.map((column) => `${quoteIdentifier(column)} ${typeOf.get(column)}`);
    engine.push(`CREATE TABLE ${qualified} (${definitions.join(', ')})`);
    const pastedName = random.chance(0.3) ? `${schemaName}.${dumped(table.name)}` : dumped(table.name);
    const pastedColumns = table.columns.map((column, position) => {
      const constraint = position === 0 && random.chance(0.3) ? ' NOT NULL' : '';
      const name = simple(column) && random.chance(0.15) ? column.toUpperCase() : dumped(column);
      return `${name} ${typeOf.get(column)}${constraint}`;
    });
    pastedSchema.push(`CREATE TABLE ${pastedName} (${pastedColumns.join(', ')});`);
  }
  const grants: { engine: string; pasted: string }[] = [];
  const grant = (statement: (name: (column: string) => string) => string) =>
    grants.push({ engine: statement(quoteIdentifier), pasted: statement(dumped) });
  for (const role of roles) {
    engine.push(`CREATE ROLE ${role}`, `GRANT USAGE ON SCHEMA ${schemaName} TO ${role}`);
    const pastedRole = role.replace('user', 'User');
    grants.push({ engine: '', pasted: `GRANT USAGE ON SCHEMA ${schemaName} TO ${pastedRole};` });
    if (random.chance(0.08)) grant(() => `GRANT SELECT ON ALL TABLES IN SCHEMA ${schemaName} TO ${pastedRole};`);
    for (const table of tables) {
      const on = (name: (column: string) => string) => `${schemaName}.${name(table.name)}`;
      const roll = random.next();
      const some = table.columns.filter(() => random.chance(0.75));
      const list = (name: (column: string) => string, columns: readonly string[]) => columns.map(name).join(', ');
      if (roll < 0.1) continue;
      if (roll < 0.3) grant((name) => `GRANT SELECT ON ${on(name)} TO ${pastedRole};`);
      else if (roll < 0.34) grant((name) => `GRANT ALL PRIVILEGES ON TABLE ${on(name)} TO ${pastedRole};`);
      else if (roll < 0.37)
        grant((name) => `GRANT INSERT, UPDATE (${list(name, table.columns)}) ON ${on(name)} TO ${pastedRole};`);
      else if (some.length > 0) grant((name) => `GRANT SELECT (${list(name, some)}) ON ${on(name)} TO ${pastedRole};`);
      if (some.length > 0 && random.chance(0.08)) {
        const revoked = [random.pick(some)];
        grant((name) => `REVOKE SELECT (${list(name, revoked)}) ON ${on(name)} FROM ${pastedRole};`);
      }
      if (random.chance(0.04)) grant((name) => `REVOKE ALL ON ${on(name)} FROM ${pastedRole};`);
    }
  }
  if (random.chance(0.1)) grant(() => `GRANT ${roles[0]} TO ${roles[2]};`);
  if (random.chance(0.08)) {
    const table = random.pick(tables);
    const column = random.pick(table.columns);
    grant((name) => `GRANT SELECT (${name(column)}) ON ${schemaName}.${name(table.name)} TO PUBLIC;`);
  }
  return {
    schemaName,
    tables,
    roles,
    setup: [...engine, ...grants.flatMap((item) => (item.engine === '' ? [] : [item.engine]))].join(';\n'),
    pastedSchema: pastedSchema.join('\n'),
    pastedGrants: grants.map((item) => item.pasted).join('\n'),
  };
}

/** A relation a query's FROM names, with the name its columns are qualified by. */
interface Source {
  qualifier: string;
  columns: string[];
}

interface Level {
  sources: Source[];
  outer: Level | undefined;
}

/** Writes random queries over one database: the SQL shapes agents send, in the forms PostgreSQL accepts. */
export class QueryWriter {
  #random: Random;
  #database: CaseDatabase;
  #aliases = 0;
  #ctes: { name: string; columns: string[] }[] = [];

  constructor(random: Random, database: CaseDatabase) {
    this.#random = random;
    this.#database = database;
  }

  /** One query. */
  query(): string {
    this.#aliases = 0;
    this.#ctes = [];
    const random = this.#random;
    let prefix = '';
    if (random.chance(0.25)) prefix = this.#with();
    let body: string;
    if (random.chance(0.15)) {
      const width = 1 + random.int(2);
      const operator = random.pick(['UNION', 'UNION ALL', 'INTERSECT', 'EXCEPT']);
      body = `(${this.#select(undefined, 1, width)}) ${operator} (${this.#select(undefined, 1, width)})`;
      if (random.chance(0.3)) body += ' ORDER BY 1';
    } else body = this.#select(undefined, 0);
    return `${prefix}${body}`;
  }

  #alias(): string {
    this.#aliases++;
    return `t${this.#aliases}`;
  }

  #with(): string {
    const random = this.#random;
    const parts: string[] = [];
    let recursive = false;
    for (let count = 1 + random.int(2); count > 0; count--) {
      const name = `c${this.#ctes.length + 1}`;
      if (random.chance(0.2)) {
        recursive = true;
        const table = random.pick(this.#database.tables);
        const column = random.pick(table.columns);
        parts.push(
          `${name}(n) AS (SELECT ${quoteIdentifier(column)}::integer FROM ${quoteIdentifier(table.name)} UNION ALL SELECT n + 1 FROM ${name} WHERE n < 3)`,
        );
        this.#ctes.push({ name, columns: ['n'] });
        continue;
      }
      const width = 1 + random.int(3);
      const columns = Array.from({ length: width }, (_, position) => `v${position + 1}`);
      parts.push(`${name} AS (${this.#select(undefined, 1, width, columns)})`);
      this.#ctes.push({ name, columns });
    }
    return `WITH ${recursive ? 'RECURSIVE ' : ''}${parts.join(', ')} `;
  }

  /** A FROM item: a table (sometimes schema-qualified), a CTE, or a derived table. */
  #fromItem(depth: number, level: Level, mayBeLateral: boolean): [string, Source] {
    const random = this.#random;
    const roll = random.next();
    if (roll < 0.12 && depth < 2) {
      const alias = this.#alias();
      const width = 1 + random.int(3);
      const columns = Array.from({ length: width }, (_, position) => `d${position + 1}`);
      const lateral = mayBeLateral && level.sources.length > 0 && random.chance(0.3);
      const inner = this.#select(lateral ? level : undefined, depth + 1, width, columns);
      return [`${lateral ? 'LATERAL ' : ''}(${inner}) AS ${alias}`, { qualifier: alias, columns }];
    }
    if (roll < 0.3 && this.#ctes.length > 0) {
      const cte = random.pick(this.#ctes);
      const alias = random.chance(0.5) ? this.#alias() : undefined;
      const taken = level.sources.some((source) => source.qualifier === (alias ?? cte.name));
      const name = taken || alias !== undefined ? (alias ?? this.#alias()) : undefined;
      return [
        name === undefined ? cte.name : `${cte.name} AS ${name}`,
        { qualifier: name ?? cte.name, columns: cte.columns },
      ];
    }
    const table = random.pick(this.#database.tables);
    const schema = random.chance(0.25) ? `${written(random, this.#database.schemaName)}.` : '';
    const relation = `${schema}${written(random, table.name, schema !== '')}`;
    const unaliased = quoteIdentifier(table.name);
    const taken = level.sources.some((source) => source.qualifier === unaliased);
    if (!taken && random.chance(0.35)) return [relation, { qualifier: unaliased, columns: table.columns }];
    const alias = this.#alias();
    return [`${relation}${random.chance(0.5) ? ' AS' : ''} ${alias}`, { qualifier: alias, columns: table.columns }];
  }

  /**
   * A column of a source of this level (or, correlated, an outer one), qualified where a bare name would be
   * ambiguous (with `joining`, the source an ON condition joins, in scope too).
   */
  #column(level: Level, outer = false, joining?: Source): string {
    const random = this.#random;
    let current = level;
    while (outer && current.outer !== undefined && random.chance(0.5)) current = current.outer;
    const source = random.pick(current.sources);
    const column = random.pick(source.columns);
    const scope = joining === undefined ? current.sources : [...current.sources, joining];
    const sharing = scope.filter((candidate) => candidate.columns.includes(column)).length;
    const bare = current === level && sharing === 1 && random.chance(0.5);
    if (bare) return written(random, column);
    return `${source.qualifier}.${written(random, column, true)}`;
  }

  #predicate(level: Level, depth: number): string {
    const random = this.#random;
    const roll = random.next();
    const column = this.#column(level, true);
    if (depth < 2 && roll < 0.15) return `${column} IN (${this.#select(undefined, depth + 1, 1)})`;
    if (depth < 2 && roll < 0.3) return `${random.chance(0.3) ? 'NOT ' : ''}EXISTS (${this.#select(level, depth + 1)})`;
    if (depth < 2 && roll < 0.38) {
      const inner = this.#select(level, depth + 1, 1, undefined, true);
      return `${column} = (${inner})`;
    }
    if (roll < 0.55) return `${column} IS NOT NULL`;
    if (roll < 0.65) return `${column} BETWEEN 1 AND 5`;
    return `${column} > ${random.int(10)}`;
  }

  /**
   * One SELECT. `outer` makes it correlated; `width` fixes its number of output columns (named by `names` when
   * given); `aggregate` makes it return one value.
   */
  #select(outer: Level | undefined, depth: number, width?: number, names?: string[], aggregate = false): string {
    const random = this.#random;
    const level: Level = { sources: [], outer };
    const from: string[] = [];
    // Sources since the last comma: the only ones an ON condition may name.
    let group = 0;
    for (let count = 1 + (random.chance(0.5) ? random.int(3) : 0); count > 0; count--) {
      const first = level.sources.length === 0;
      const roll = random.next();
      const comma = !first && roll < 0.15;
      const [text, source] = this.#fromItem(depth, level, first || comma);
      if (first) from.push(text);
      else if (comma) {
        from.push(`, ${text}`);
        group = level.sources.length;
      } else {
        const visible = { sources: level.sources.slice(group), outer };
        const once = (column: string) => visible.sources.filter((earlier) => earlier.columns.includes(column)).length;
        const shared = source.columns.filter((column) => once(column) === 1);
        const natural = source.columns.every((column) => once(column) <= 1);
        if (roll < 0.22) from.push(` CROSS JOIN ${text}`);
        else if (roll < 0.34 && shared.length > 0)
          from.push(` JOIN ${text} USING (${quoteIdentifier(random.pick(shared))})`);
        else if (roll < 0.4 && natural) from.push(` NATURAL JOIN ${text}`);
        else {
          const left = this.#column(visible, false, source);
          const right = `${source.qualifier}.${written(random, random.pick(source.columns), true)}`;
          from.push(
            ` ${random.pick(['JOIN', 'LEFT JOIN', 'INNER JOIN', 'RIGHT JOIN', 'FULL JOIN'])} ${text} ON ${left} = ${right}`,
          );
        }
      }
      level.sources.push(source);
    }
    const targets: string[] = [];
    let grouping: string[] = [];
    let window = '';
    const mode = aggregate
      ? 'aggregate'
      : width !== undefined
        ? random.pick(['plain', 'plain', 'aggregate'])
        : random.pick(['plain', 'plain', 'star', 'aggregate', 'window']);
    const count = width ?? 1 + random.int(3);
    if (mode === 'star') {
      const source = random.pick(level.sources);
      targets.push(random.chance(0.5) ? '*' : `${source.qualifier}.*`);
      if (random.chance(0.3)) targets.push(this.#column(level));
    } else if (mode === 'aggregate') {
      const grouped = aggregate ? 0 : random.int(Math.min(count, 2) + 1);
      for (let position = 0; position < count; position++) {
        if (position < grouped) {
          const column = this.#column(level);
          grouping.push(column);
          targets.push(column);
        } else
          targets.push(
            random.pick([
              'count(*)',
              `count(${this.#column(level)})`,
              `max(${this.#column(level)})`,
              `sum(${this.#column(level)})`,
              `count(DISTINCT ${this.#column(level)})`,
            ]),
          );
      }
      if (grouping.length > 0 && random.chance(0.3)) grouping = grouping.map((_, position) => String(position + 1));
    } else if (mode === 'window') {
      targets.push(this.#column(level));
      const partition = this.#column(level);
      const order = this.#column(level);
      if (random.chance(0.3)) {
        window = ` WINDOW w AS (PARTITION BY ${partition})`;
        targets.push(`rank() OVER w`);
      } else targets.push(`row_number() OVER (PARTITION BY ${partition} ORDER BY ${order})`);
    } else {
      for (let position = 0; position < count; position++) {
        const roll = random.next();
        if (roll < 0.6) targets.push(this.#column(level));
        else if (roll < 0.7) targets.push(`${this.#column(level)} + 1`);
        else if (roll < 0.78) targets.push(`coalesce(${this.#column(level)}, ${this.#column(level)})`);
        else if (roll < 0.86 && depth < 2) targets.push(`(${this.#select(level, depth + 1, 1, undefined, true)})`);
        else if (roll < 0.92 && width === undefined) targets.push(random.pick(['user', 'current_user']));
        else targets.push(String(random.int(9)));
      }
    }
    const named = targets.map((target, position) => {
      const name = names?.[position];
      if (name !== undefined) return `${target} AS ${name}`;
      if (mode !== 'star' && random.chance(0.15))
        return `${target} AS ${random.pick(['x', '"end"', 'total', '"Order"'])}`;
      return target;
    });
    const distinct = mode === 'plain' && random.chance(0.1) ? 'DISTINCT ' : '';
    let sql = `SELECT ${distinct}${named.join(', ')} FROM ${from.join('')}`;
    if (random.chance(0.55)) {
      sql += ` WHERE ${this.#predicate(level, depth)}`;
      if (random.chance(0.3)) sql += ` ${random.pick(['AND', 'OR'])} ${this.#predicate(level, depth)}`;
    }
    if (grouping.length > 0) sql += ` GROUP BY ${grouping.join(', ')}`;
    if (mode === 'aggregate' && !aggregate && random.chance(0.2)) sql += ` HAVING count(*) > ${random.int(3)}`;
    sql += window;
    if (width === undefined && random.chance(0.25)) {
      const orderable = mode === 'plain' && distinct === '' ? this.#column(level) : '1';
      sql += ` ORDER BY ${random.chance(0.5) ? '1' : orderable}${random.chance(0.3) ? ' DESC' : ''}`;
    }
    if (aggregate || random.chance(0.1)) sql += aggregate ? ' LIMIT 1' : ` LIMIT ${1 + random.int(5)}`;
    return sql;
  }
}
