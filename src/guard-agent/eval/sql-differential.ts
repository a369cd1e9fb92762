import type { GuardProgram } from '../guard-program.ts';
import type { Toolbox } from '../toolbox/toolbox.ts';
import { type CaseDatabase, generateDatabase, QueryWriter, Random } from './sql-cases.ts';

/** A case where the guard and PostgreSQL disagree. */
export interface Disagreement {
  query: string;
  role: string;
  schema: string;
  grants: string;
  /** PostgreSQL's answer: `allowed`, or its error message. */
  postgres: string;
  guard: string;
}

/** The outcome of a differential run against PostgreSQL. */
export interface DifferentialReport {
  seed: number;
  databases: number;
  /** Queries decided by both, one per role. */
  cases: number;
  /** Of them, the ones PostgreSQL denied with `permission denied for table`. */
  denied: number;
  /** Generated cases PostgreSQL refused for another reason (a type mismatch, say): not compared. */
  refused: number;
  /** Cases where the guard decided as PostgreSQL. */
  agreed: number;
  /** Cases the guard allowed and PostgreSQL denied: a guard must have none. */
  looser: Disagreement[];
  /** Cases the guard denied and PostgreSQL allowed (a part of the query its planner proved unneeded, never checked). */
  stricter: Disagreement[];
  /** Denied cases where the guard's first inaccessible table is the one PostgreSQL names. */
  sameTable: number;
  /** Denied cases naming another table than PostgreSQL's first. */
  otherTable: Disagreement[];
  /** Microseconds per case: PostgreSQL's `SET ROLE` and `EXPLAIN`, and the guard (reading each database's text once). */
  postgresUs: number[];
  guardUs: number[];
}

/** What PostgreSQL does: `EXPLAIN` a query as a role, which checks its privileges without running it. */
export interface PostgresOracle {
  /** Builds one database (schema, tables, roles, grants) and makes its schema the search path. */
  create(database: CaseDatabase): Promise<void>;
  /** `allowed`, or PostgreSQL's error message. */
  explain(role: string, query: string): Promise<string>;
  close(): Promise<void>;
}

/** PostgreSQL in WebAssembly (PGlite, a development dependency, loaded only when called). */
export async function startPglite(): Promise<PostgresOracle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const database = await PGlite.create();
  return {
    async create(generated) {
      await database.exec(`${generated.setup};\nSET search_path TO ${generated.schemaName}`);
    },
    async explain(role, query) {
      try {
        // One batch, one implicit transaction: an error rolls SET ROLE back with it.
        await database.exec(`SET ROLE ${role}; EXPLAIN ${query}; RESET ROLE`);
        return 'allowed';
      } catch (error) {
        return (error as Error).message;
      }
    },
    close: () => database.close(),
  };
}

const deniedTable = (message: string) => /^permission denied for table (.+)$/.exec(message)?.[1];

/**
 * Generates databases and queries from a seed and decides each query for each role with the guard program and with
 * PostgreSQL, as Spider-AC's labels were made, and reports where they differ.
 *
 * @example
 * ```ts
 * const report = await runSqlDifferential({ cases: 2000, seed: 1 }, program, toolbox, await startPglite());
 * ```
 */
export async function runSqlDifferential(
  options: { cases: number; seed: number; queriesPerDatabase?: number },
  program: GuardProgram,
  toolbox: Toolbox,
  oracle: PostgresOracle,
): Promise<DifferentialReport> {
  const random = new Random(options.seed);
  const perDatabase = options.queriesPerDatabase ?? 12;
  const report: DifferentialReport = {
    seed: options.seed,
    databases: 0,
    cases: 0,
    denied: 0,
    refused: 0,
    agreed: 0,
    sameTable: 0,
    looser: [],
    stricter: [],
    otherTable: [],
    postgresUs: [],
    guardUs: [],
  };
  while (report.cases < options.cases) {
    const database = generateDatabase(random, report.databases);
    report.databases++;
    await oracle.create(database);
    const writer = new QueryWriter(random, database);
    for (let count = 0; count < perDatabase && report.cases < options.cases; count++) {
      const query = writer.query();
      for (const role of database.roles) {
        let started = performance.now();
        const postgres = await oracle.explain(role, query);
        report.postgresUs.push((performance.now() - started) * 1000);
        const table = deniedTable(postgres);
        if (postgres !== 'allowed' && table === undefined) {
          report.refused++;
          continue;
        }
        const pastedRole = role.replace('user', 'User');
        started = performance.now();
        const decision = program(
          { input: { role: pastedRole, grants: database.pastedGrants, schema: database.pastedSchema }, output: query },
          toolbox,
        );
        report.guardUs.push((performance.now() - started) * 1000);
        report.cases++;
        if (table !== undefined) report.denied++;
        const denied = 'abstain' in decision || decision.label === 1;
        const reasons = 'abstain' in decision ? [] : decision.reasons;
        const first = reasons.find((reason) => reason.kind === 'access');
        const guard =
          'abstain' in decision
            ? `abstained: ${decision.abstain}`
            : denied
              ? `denied: ${reasons.map((reason) => (reason.kind === 'access' ? `${reason.table} (${reason.columns.join(', ')})` : JSON.stringify(reason))).join('; ')}`
              : 'allowed';
        const disagreement = {
          query,
          role: pastedRole,
          schema: database.pastedSchema,
          grants: database.pastedGrants,
          postgres,
          guard,
        };
        if (denied !== (table !== undefined)) {
          (denied ? report.stricter : report.looser).push(disagreement);
          continue;
        }
        report.agreed++;
        if (table === undefined) continue;
        if (first?.kind === 'access' && first.table === table) report.sameTable++;
        else report.otherTable.push(disagreement);
      }
    }
  }
  return report;
}
