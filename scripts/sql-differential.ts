/**
 * Decides generated SQL access-control cases with the reviewed guard program and with PostgreSQL (PGlite) and
 * prints where they differ: `npm run test:sql-differential -- --cases 20000 --seed 7`. Exits 1 if the guard allows a query
 * PostgreSQL denies.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runSqlDifferential, startPglite } from '../src/guard-agent/eval/sql-differential.ts';
import { loadProgramPack } from '../src/guard-agent/program-pack.ts';
import { loadPostgresParser } from '../src/guard-agent/toolbox/postgres-parser.ts';
import { createToolbox } from '../src/guard-agent/toolbox/toolbox.ts';
import { quantile } from '../src/replay/report.ts';

const percentiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return [0.5, 0.99].map((share) => quantile(sorted, share).toFixed(0)).join('/');
};

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '1' },
      show: { type: 'string', default: '5' },
    },
  });
  await loadPostgresParser();
  const pack = await loadProgramPack(fileURLToPath(new URL('../packs/sql-access-control/', import.meta.url)));
  if (pack.program === undefined) throw new Error('packs/sql-access-control: the program did not load');
  const program = pack.program;
  const oracle = await startPglite();
  const started = performance.now();
  const report = await runSqlDifferential(
    { cases: Number(values.cases), seed: Number(values.seed) },
    program,
    createToolbox(),
    oracle,
  );
  await oracle.close();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `seed ${report.seed}: ${report.cases} cases over ${report.databases} databases in ${seconds} s; PostgreSQL denied ${report.denied}, refused ${report.refused} more (not compared)`,
  );
  console.log(
    `decision agreed: ${report.agreed}/${report.cases} (allowed where PostgreSQL denied: ${report.looser.length}; denied where it allowed: ${report.stricter.length}); first denied table agreed: ${report.sameTable}/${report.denied}`,
  );
  console.log(
    `per case, p50/p99: PostgreSQL SET ROLE + EXPLAIN ${percentiles(report.postgresUs)} µs; guard ${percentiles(report.guardUs)} µs`,
  );
  for (const item of [...report.looser, ...report.stricter, ...report.otherTable].slice(0, Number(values.show)))
    console.log(JSON.stringify(item, null, 1));
  process.exitCode = report.looser.length > 0 ? 1 : 0;
}
