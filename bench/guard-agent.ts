/**
 * The guard agent's compiled mode and memory: the SQL access-control program deciding Spider-AC rows, beside the bare
 * PostgreSQL parse of the same query, and retrieval among 10,000 demonstrations made from the rows. Run:
 * `npm run bench:guard-agent -- --data <spider-ac dev.jsonl.gz>`.
 */
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readSpiderAc, type SpiderAcRow } from '../src/guard-agent/eval/spider-ac.ts';
import { DemonstrationMemory } from '../src/guard-agent/memory.ts';
import { loadProgramPack, requireProgram } from '../src/guard-agent/program-pack.ts';
import { loadPostgresParser, parsePostgres } from '../src/guard-agent/toolbox/postgres-parser.ts';
import { createToolbox } from '../src/guard-agent/toolbox/toolbox.ts';
import { quantile } from '../src/replay/report.ts';

/** Medians and 99th percentiles, in microseconds. */
export interface GuardAgentBench {
  rows: number;
  program: { p50: number; p99: number };
  parse: { p50: number; p99: number };
  retrieval: { demonstrations: number; p50: number; p99: number };
}

const figures = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: Math.round(quantile(sorted, 0.5) * 10) / 10, p99: Math.round(quantile(sorted, 0.99) * 10) / 10 };
};

/** Measures one warm pass of the program over `rows`, and `queries` retrievals among `demonstrations` demonstrations. */
export async function runGuardAgentBench(
  rows: readonly SpiderAcRow[],
  demonstrations = 10_000,
  queries = 50,
): Promise<GuardAgentBench> {
  await loadPostgresParser();
  const program = requireProgram(
    await loadProgramPack(fileURLToPath(new URL('../packs/sql-access-control/', import.meta.url))),
  );
  const toolbox = createToolbox();
  const decide = (row: SpiderAcRow) =>
    program(
      {
        input: { role: `${row.db_id}_${row.user}`, grants: row.access_policy_sql, schema: row.schema_ddl },
        output: row.query,
      },
      toolbox,
    );
  for (const row of rows) decide(row);
  const programTimes: number[] = [];
  const parseTimes: number[] = [];
  for (const row of rows) {
    let started = process.hrtime.bigint();
    decide(row);
    programTimes.push(Number(process.hrtime.bigint() - started) / 1000);
    started = process.hrtime.bigint();
    parsePostgres(row.query);
    parseTimes.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  const memory = DemonstrationMemory.open(':memory:');
  memory.add(
    ...Array.from({ length: demonstrations }, (_, index) => {
      const row = rows[index % rows.length] as SpiderAcRow;
      return {
        request: 'access control',
        input: `${row.user} of ${row.db_id}: ${index}`,
        output: row.query,
        plan: '',
        code: '',
        label: 0 as const,
        source: 'seed' as const,
      };
    }),
  );
  const retrievalTimes: number[] = [];
  for (let index = 0; index < queries; index++) {
    const row = rows[(index * 7919) % rows.length] as SpiderAcRow;
    const started = process.hrtime.bigint();
    memory.retrieve(`${row.user} of ${row.db_id}`, row.query, 3);
    retrievalTimes.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  memory.close();
  return {
    rows: rows.length,
    program: figures(programTimes),
    parse: figures(parseTimes),
    retrieval: { demonstrations, ...figures(retrievalTimes) },
  };
}

/** The figures as a table. */
export function formatGuardAgentBench(result: GuardAgentBench): string {
  const cpu = cpus();
  return [
    `guard agent, µs per row over ${result.rows} Spider-AC rows (one warm pass)`,
    `machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, Node ${process.version}`,
    `compiled program decision   p50 ${result.program.p50}   p99 ${result.program.p99}`,
    `bare PostgreSQL parse       p50 ${result.parse.p50}   p99 ${result.parse.p99}   (decision/parse at p50: ${(result.program.p50 / Math.max(result.parse.p50, 0.1)).toFixed(1)}x)`,
    `memory retrieval among ${result.retrieval.demonstrations}: p50 ${result.retrieval.p50}   p99 ${result.retrieval.p99}`,
  ].join('\n');
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { data: { type: 'string' } } });
  if (values.data === undefined) throw new Error('usage: npm run bench:guard-agent -- --data <spider-ac dev.jsonl.gz>');
  const rows = (await readSpiderAc(values.data)).filter((row): row is SpiderAcRow => !('error' in row));
  process.stdout.write(`${formatGuardAgentBench(await runGuardAgentBench(rows))}\n`);
}
