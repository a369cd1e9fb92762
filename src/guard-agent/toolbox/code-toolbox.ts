import { AgentGuardError } from '../../errors.ts';
import type { Permissions } from './grants.ts';
import type { Toolbox } from './toolbox.ts';

/** A function offered to generated guard code: its name, TypeScript signature, what it does, and its implementation. */
export interface ToolboxFunction {
  name: string;
  signature: string;
  description: string;
  /** Called with JSON copies of the arguments; returns JSON. */
  run: (...args: unknown[]) => unknown;
  /**
   * Why a result of this function leaves the task undetermined (as `{ ok: false, reason }` does), or undefined when it
   * does not: a guard that grants after such a result is denied.
   */
  undetermined?: (result: unknown) => string | undefined;
  /**
   * What the prompts state when this function is in the toolbox shown, because its results need it (a SQL reader's
   * rule on reads that cannot be determined, its dialect). Shown once however many functions carry the same rule.
   */
  promptRules?: readonly string[];
}

/** The rule of every function that determines what a query reads (`undetermined` set): a read is never assumed. */
const readRule =
  'What the target agent read must be determined, never assumed: a task whose output holds no query (missing, null, empty, or the text "null") has a read that cannot be determined, and is denied with an `undetermined` reason. This is enforced after your code runs: a grant is turned into a denial when a toolbox function reported that it could not determine something (`ok: false`), or when the code granted without calling any toolbox function.';
const dialectRule =
  "Each SQL function of the toolbox names the dialect it reads: use the one that matches the target agent's database, as its specification says.";

/** The reason of an `{ ok: false, reason }` result. */
const notOk = (result: unknown) => {
  const { ok, reason } = (result ?? {}) as { ok?: unknown; reason?: unknown };
  return ok === false ? String(reason) : undefined;
};

const tablesOf = (tables: readonly { table: string; columns: string[] }[]) =>
  Object.fromEntries(tables.map((table) => [table.table, table.columns]));

type Readable = Record<string, string[] | '*'>;

function toPermissions(allowed: Readable): Permissions {
  return new Map(
    Object.entries(allowed).map(([table, columns]) => [
      table.toLowerCase(),
      columns === '*'
        ? { all: true, columns: new Set<string>() }
        : { all: false, columns: new Set(columns.map((column) => column.toLowerCase())) },
    ]),
  );
}

function toSchema(toolbox: Toolbox, schema: unknown): Map<string, string[]> {
  if (typeof schema === 'string') return toolbox.schema(schema).schema;
  return new Map(
    Object.entries(schema as Record<string, string[]>).map(([table, columns]) => [
      table.toLowerCase(),
      columns.map((column) => column.toLowerCase()),
    ]),
  );
}

/**
 * The toolbox as generated guard code sees it inside the sandbox: functions over plain JSON (maps of tables to
 * columns), each with the signature and description the model is shown. Users add their own with `register`.
 *
 * @example
 * ```ts
 * const functions = codeToolbox(createToolbox());
 * ```
 */
export function codeToolbox(toolbox: Toolbox, extra: readonly ToolboxFunction[] = []): ToolboxFunction[] {
  const base: ToolboxFunction[] = [
    {
      name: 'CheckAccess',
      signature:
        'CheckAccess(allowed: Record<string, string[] | "*">, needed: Record<string, string[]>): { denied: boolean; inaccessible: Record<string, string[]> }',
      description:
        'Compares the tables and columns a request needs with those a role may read ("*" for a whole table). A table needed for no column needs at least one readable column.',
      run: (allowed, needed) => {
        const decision = toolbox.checkAccess(
          toPermissions(allowed as Readable),
          Object.entries(needed as Record<string, string[]>).map(([table, columns]) => ({
            table: table.toLowerCase(),
            columns: columns.map((column) => column.toLowerCase()),
          })),
        );
        return {
          denied: decision.denied,
          inaccessible: Object.fromEntries(decision.inaccessible.map((item) => [item.table, item.columns])),
        };
      },
    },
    {
      name: 'CheckRule',
      signature:
        'CheckRule(rules: Record<string, { info: string; operator: "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in"; value: unknown; violation: string }[]>, user: Record<string, unknown>): { denied: boolean; violations: { action: string; violation: string }[] }',
      description:
        "Checks, for each action, the rules that must hold of the user's information; missing information breaks a rule.",
      run: (rules, user) =>
        toolbox.checkRule(rules as Parameters<Toolbox['checkRule']>[0], user as Record<string, unknown>),
    },
    {
      name: 'SqlAccess',
      signature:
        'SqlAccess(sql: string, schema: Record<string, string[]> | string): { ok: true; tables: Record<string, string[]> } | { ok: false; reason: string }',
      description:
        "PostgreSQL dialect: the tables and columns a SQL query reads, parsed by PostgreSQL's parser and resolved with the schema (tables to columns, or CREATE TABLE statements). ok is false when that cannot be determined: then deny. For SQLite queries use SqliteReads.",
      run: (sql, schema) => {
        const access = toolbox.queryAccess(String(sql), toSchema(toolbox, schema));
        return access.ok ? { ok: true, tables: tablesOf(access.tables) } : access;
      },
      undetermined: notOk,
      promptRules: [readRule, dialectRule],
    },
    {
      name: 'SqliteReads',
      signature:
        'SqliteReads(sql: string | null, schema: Record<string, string[]> | string): { ok: true; tables: Record<string, string[]> } | { ok: false; reason: string }',
      description:
        "SQLite dialect: the tables and columns a SQLite query reads, as SQLite itself resolves them (the schema, tables to columns or CREATE TABLE statements, becomes a SQLite database; the query is prepared there, never run). A table read for no column (count(*)) maps to []. ok is false, with SQLite's message, when SQLite refuses the query, when it does anything but read, and when there is no query (null, empty, 'null'): then deny. Pass the agent's query as it is, even when it is missing.",
      run: (sql, schema) => {
        const reads = toolbox.sqliteReads(sql, schema as Record<string, string[]> | string);
        return reads.ok ? { ok: true, tables: tablesOf(reads.tables) } : reads;
      },
      undetermined: notOk,
      promptRules: [readRule, dialectRule],
    },
    {
      name: 'GrantsOf',
      signature: 'GrantsOf(grants: string, role: string, tables?: string[]): Record<string, string[] | "*">',
      description:
        'What a role may read according to GRANT statements: tables to readable columns, "*" for a whole table. Throws on GRANT statements that cannot be read.',
      run: (grants, role, tables) => {
        const parsed = toolbox.grants(String(grants), (tables as string[] | undefined) ?? []);
        if (parsed.issues.length > 0)
          throw new Error(`statement ${parsed.issues[0]?.statement}: ${parsed.issues[0]?.message}`);
        const permissions = parsed.permissionsOf(String(role));
        return Object.fromEntries(
          [...permissions].map(([table, permission]) => [table, permission.all ? '*' : [...permission.columns]]),
        );
      },
    },
  ];
  return [...base, ...extra];
}

/**
 * The functions a guard request can use, in the toolbox's order: those named, or all when `names` is undefined. An
 * unknown name is an error naming the known ones.
 *
 * @example
 * ```ts
 * const shown = selectFunctions(codeToolbox(createToolbox()), ['CheckRule']);
 * ```
 */
export function selectFunctions(
  functions: readonly ToolboxFunction[],
  names: readonly string[] | undefined,
): ToolboxFunction[] {
  if (names === undefined) return [...functions];
  const known = new Set(functions.map((item) => item.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new AgentGuardError(
      'invalid_input',
      `unknown toolbox function ${unknown.map((name) => `\`${name}\``).join(', ')}: known are ${[...known].map((name) => `\`${name}\``).join(', ')}`,
    );
  return functions.filter((item) => names.includes(item.name));
}

/** The rules the prompts state for a toolbox: those its functions carry, each once, in order. */
export function promptRulesOf(functions: readonly ToolboxFunction[]): string[] {
  return [...new Set(functions.flatMap((item) => item.promptRules ?? []))];
}

/** The toolbox as the model is shown it. */
export function describeToolbox(functions: readonly ToolboxFunction[]): string {
  return functions.map((item) => `- ${item.signature}\n  ${item.description}`).join('\n');
}
