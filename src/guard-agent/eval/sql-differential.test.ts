import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadProgramPack } from '../program-pack.ts';
import { loadPostgresParser } from '../toolbox/postgres-parser.ts';
import { createToolbox } from '../toolbox/toolbox.ts';
import { type PostgresOracle, runSqlDifferential, startPglite } from './sql-differential.ts';

/** `SQL_DIFFERENTIAL_CASES` and `SQL_DIFFERENTIAL_SEED` widen the run; `npm run test:sql-differential` prints it. */
const cases = Number(process.env['SQL_DIFFERENTIAL_CASES'] ?? 2000);
const seed = Number(process.env['SQL_DIFFERENTIAL_SEED'] ?? 1);

describe('SQL access control against PostgreSQL itself', { timeout: 300_000 }, () => {
  let oracle: PostgresOracle;
  before(async () => {
    await loadPostgresParser();
    oracle = await startPglite();
  });
  after(() => oracle.close());

  it(`decides ${cases} generated cases as PostgreSQL does`, async () => {
    const pack = await loadProgramPack(fileURLToPath(new URL('../../../packs/sql-access-control/', import.meta.url)));
    assert.ok(pack.program, 'the reviewed program loads');
    const report = await runSqlDifferential({ cases, seed }, pack.program, createToolbox(), oracle);
    assert.equal(report.refused, 0, 'every generated query is one PostgreSQL runs');
    assert.ok(report.denied > cases / 4 && report.denied < (cases * 3) / 4, `a mix of denials: ${report.denied}`);
    assert.deepEqual(report.looser.slice(0, 3), [], 'never allowed where PostgreSQL denies');
    // Where PostgreSQL's planner removes part of a query (a LEFT JOIN to a provably unique derived table whose columns
    // nothing uses, say), it never checks that part; the guard still does, and denies.
    assert.ok(report.stricter.length <= cases / 500, `denied where PostgreSQL allowed: ${report.stricter.length}`);
    // PostgreSQL names the first table its plan checks; subquery pull-up can reorder that, which we do not model.
    assert.ok(report.sameTable / report.denied >= 0.98, `first denied table: ${report.sameTable}/${report.denied}`);
  });
});
