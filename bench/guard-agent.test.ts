import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatGuardAgentBench, runGuardAgentBench } from './guard-agent.ts';

it('the guard agent benchmark times the compiled program, the parse and retrieval', async () => {
  const grants = 'GRANT SELECT (id, name) ON shop.item TO shop_User_1;';
  const ddl = 'CREATE TABLE item (id bigint, name text, price double precision);';
  const rows = ['SELECT name FROM item', 'SELECT price FROM item', 'SELECT count(*) FROM item'].map((query) => ({
    db_id: 'shop',
    user: 'User_1',
    query,
    ground_truth_label: '',
    access_policy_sql: grants,
    schema_ddl: ddl,
  }));
  const result = await runGuardAgentBench(rows, 200, 5);
  assert.equal(result.rows, 3);
  assert.ok(result.program.p50 > 0);
  assert.match(formatGuardAgentBench(result), /compiled program decision/);
});
