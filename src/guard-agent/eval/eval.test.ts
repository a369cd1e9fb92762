import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadProgramPack, requireProgram } from '../program-pack.ts';
import { loadPostgresParser } from '../toolbox/postgres-parser.ts';
import { createToolbox } from '../toolbox/toolbox.ts';
import { evaluateEicuAc, readEicuAc } from './eicu-ac.ts';
import { evaluateSpiderAc, readSpiderAc } from './spider-ac.ts';

before(() => loadPostgresParser());
const pack = await loadProgramPack(fileURLToPath(new URL('../../../packs/sql-access-control/', import.meta.url)));
const grants =
  'GRANT USAGE ON SCHEMA shop TO shop_User_1;\nGRANT SELECT (id, name, price) ON shop.item TO shop_User_1;\nGRANT SELECT (id) ON shop.buyer TO shop_User_2;';
const ddl =
  'CREATE TABLE item (id bigint, name text, price double precision, cost double precision);\nCREATE TABLE buyer (id bigint, email text);';
const row = (user: string, query: string, label: string) => ({
  db_id: 'shop',
  user,
  query,
  question: '',
  ground_truth_label: label,
  access_policy_sql: grants,
  schema_ddl: ddl,
});

describe('evaluateSpiderAc', () => {
  it('writes a line per row, counts malformed rows apart, and computes LPA, LPP, LPR and CCA per role', async () => {
    const rows = [
      row('User_1', 'SELECT name FROM item WHERE price > 3', '[["tea"]]'),
      row('User_1', 'SELECT cost FROM item', 'ERROR: permission denied for table item\n'),
      row('User_1', 'SELECT email FROM buyer', 'ERROR: permission denied for table buyer\n'),
      // PostgreSQL permitted this row; the program denies it (a made-up disagreement, to test the metrics).
      row('User_2', 'SELECT count(*) FROM item', '[[3]]'),
      row('User_2', 'SELECT count(*) FROM buyer', '[[9]]'),
    ];
    const file = join(await mkdtemp(join(tmpdir(), 'agentguard-spider-')), 'rows.jsonl.gz');
    await writeFile(
      file,
      gzipSync(`${rows.map((item) => JSON.stringify(item)).join('\n')}\n{"db_id": "shop"}\nnot json\n`),
    );
    const evaluation = evaluateSpiderAc(await readSpiderAc(file), requireProgram(pack), createToolbox());
    assert.deepEqual(
      evaluation.lines.map(({ index, verdict, denied_tables }) => ({ index, verdict, denied_tables })),
      [
        { index: 0, verdict: 'permit', denied_tables: [] },
        { index: 1, verdict: 'deny', denied_tables: ['item'] },
        { index: 2, verdict: 'deny', denied_tables: ['buyer'] },
        { index: 3, verdict: 'deny', denied_tables: ['item'] },
        { index: 4, verdict: 'permit', denied_tables: [] },
        { index: 5, verdict: 'deny', denied_tables: [] },
        { index: 6, verdict: 'deny', denied_tables: [] },
      ],
    );
    assert.equal(evaluation.malformed.length, 2);
    assert.match(evaluation.malformed[0] ?? '', /^line 6: \$\.user/);
    assert.match(evaluation.malformed[1] ?? '', /^line 7: not valid JSON/);
    assert.deepEqual(evaluation.perRole['User_1'], { rows: 3, lpa: 1, lpp: 1, lpr: 1, cca: 1 });
    // User_2: one false denial, one true permit: LPA 1/2, no true denial (precision 0 of 1), nothing to recall.
    assert.deepEqual(evaluation.perRole['User_2'], { rows: 2, lpa: 0.5, lpp: 0, lpr: 1, cca: 1 });
    assert.deepEqual(evaluation.overall, { rows: 5, lpa: 0.8, lpp: 2 / 3, lpr: 1, cca: 1 });
  });
});

describe('the EICU-AC scenario', () => {
  it('decides each role by the tables and columns the GuardAgent paper lets it read', async () => {
    const scenario = await readEicuAc(fileURLToPath(new URL('../../../data/eicu-ac/eicu-ac.json', import.meta.url)));
    const { lines, summary } = evaluateEicuAc(scenario, requireProgram(pack), createToolbox());
    const decide = (role: string, index: number) => lines.find((line) => line.role === role && line.index === index);
    // Question 0 reads medication.routeadmin: physicians and nurses may; general administration may not.
    assert.equal(decide('physician', 0)?.verdict, 'permit');
    assert.equal(decide('nursing', 0)?.verdict, 'permit');
    assert.deepEqual(decide('general administration', 0)?.denied_tables, ['medication']);
    // Question 16 reads cost and diagnosis.diagnosisid: physicians may read neither, administration not the second.
    assert.deepEqual(decide('physician', 16)?.denied_tables, ['cost', 'diagnosis']);
    assert.deepEqual(decide('general administration', 16)?.denied_tables, ['diagnosis']);
    assert.equal(scenario.questions.length, 1117);
    for (const counts of Object.values(summary)) assert.equal(counts.permit + counts.deny + counts.undetermined, 1117);
  });
  it('leaves no query SQLite accepts undetermined: SQLite resolves them, and what it refuses keeps its message', async () => {
    const scenario = await readEicuAc(fileURLToPath(new URL('../../../data/eicu-ac/eicu-ac.json', import.meta.url)));
    const { lines } = evaluateEicuAc(scenario, requireProgram(pack), createToolbox());
    const undetermined = lines.filter((line) => line.undetermined !== undefined);
    const refused = undetermined.filter((line) => !line.undetermined?.startsWith('no query ("null")'));
    // EHRSQL has no query for 362 questions; 4 queries keep unfilled template values, which SQLite refuses.
    assert.equal(undetermined.length - refused.length, 362 * 3);
    assert.equal(refused.length, 4 * 3);
    for (const line of refused)
      assert.match(line.undetermined ?? '', /^SQLite refused the query: no such column: \w+_(lower|upper)$/);
  });
});
