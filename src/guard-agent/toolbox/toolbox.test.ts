import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { checkAccess } from './check-access.ts';
import { checkRule } from './check-rule.ts';
import { parseGrants } from './grants.ts';
import { loadPostgresParser } from './postgres-parser.ts';
import { schemaFromDdl } from './schema.ts';
import { extractAccess } from './sql-access.ts';

before(() => loadPostgresParser());
const ddl = `CREATE TABLE head (head_id bigint, name text, born_state text, age double precision);
CREATE TABLE management (department_id bigint, head_id bigint, temporary_acting text);
CREATE TABLE department (department_id bigint, name text, budget double precision);`;
const reads = (sql: string) => {
  const access = extractAccess(sql, schemaFromDdl(ddl).schema);
  return access.ok ? Object.fromEntries(access.tables.map((table) => [table.table, table.columns])) : access.reason;
};

describe('extractAccess', () => {
  const cases: [string, string, unknown][] = [
    ['a filter', 'SELECT name FROM head WHERE age > 56', { head: ['name', 'age'] }],
    ['count(*) reads no column', 'SELECT count(*) FROM head', { head: [] }],
    ['* reads every column', 'SELECT * FROM head', { head: ['head_id', 'name', 'born_state', 'age'] }],
    [
      'alias.* reads one table',
      'SELECT T1.* FROM head AS T1 JOIN management AS T2 ON T1.head_id = T2.head_id',
      { head: ['head_id', 'name', 'born_state', 'age'], management: ['head_id'] },
    ],
    [
      'a join through aliases',
      "SELECT T1.name FROM head AS T1 JOIN management AS T2 ON T1.head_id = T2.head_id WHERE T2.temporary_acting = 'Yes'",
      { head: ['head_id', 'name'], management: ['head_id', 'temporary_acting'] },
    ],
    [
      'an unqualified column resolved by the schema',
      'SELECT born_state, temporary_acting FROM head JOIN management USING (head_id)',
      { head: ['head_id', 'born_state'], management: ['head_id', 'temporary_acting'] },
    ],
    [
      'a subquery in WHERE',
      'SELECT name FROM head WHERE head_id IN (SELECT head_id FROM management)',
      { head: ['name', 'head_id'], management: ['head_id'] },
    ],
    [
      'a correlated subquery',
      'SELECT name FROM head AS h WHERE EXISTS (SELECT 1 FROM management AS m WHERE m.head_id = h.head_id)',
      { head: ['name', 'head_id'], management: ['head_id'] },
    ],
    ['a derived table', 'SELECT n FROM (SELECT name AS n FROM head) AS t', { head: ['name'] }],
    ['a CTE', 'WITH x AS (SELECT name FROM department) SELECT name FROM x', { department: ['name'] }],
    ['a union', 'SELECT name FROM head UNION SELECT name FROM department', { head: ['name'], department: ['name'] }],
    [
      'a recursive CTE',
      'WITH RECURSIVE chain(id) AS (SELECT department_id FROM management UNION SELECT chain.id + 1 FROM chain WHERE chain.id < 5) SELECT id FROM chain',
      { management: ['department_id'] },
    ],
    [
      'a window function',
      'SELECT name, rank() OVER (PARTITION BY born_state ORDER BY age) FROM head',
      { head: ['name', 'born_state', 'age'] },
    ],
    ['a schema-qualified table', 'SELECT hr.head.name FROM hr.head', { head: ['name'] }],
    [
      'a natural join reads the shared columns',
      'SELECT temporary_acting FROM head NATURAL JOIN management',
      { head: ['head_id'], management: ['head_id', 'temporary_acting'] },
    ],
    [
      'a comma join with *',
      'SELECT * FROM department, management',
      { department: ['department_id', 'name', 'budget'], management: ['department_id', 'head_id', 'temporary_acting'] },
    ],
    [
      'an ORDER BY on an output alias',
      'SELECT name, count(*) AS c FROM head GROUP BY name ORDER BY c DESC',
      { head: ['name'] },
    ],
    [
      'aggregates over columns',
      'SELECT avg(budget), max(department_id) FROM department',
      { department: ['budget', 'department_id'] },
    ],
  ];
  for (const [name, sql, expected] of cases) it(name, () => assert.deepEqual(reads(sql), expected));

  it('lists tables in the order PostgreSQL checks them: FROM first, then subqueries', () => {
    assert.deepEqual(
      Object.keys(
        reads(
          'SELECT name FROM department WHERE department_id IN (SELECT department_id FROM management) AND name IN (SELECT name FROM head)',
        ) as object,
      ),
      ['department', 'management', 'head'],
    );
  });
  it('cannot determine what an unparseable, ambiguous or unknown query reads', () => {
    assert.match(
      String(reads('SELEC name FROM head')),
      /could not determine what the query reads: syntax error at or near "SELEC" at character 1/,
    );
    assert.match(String(reads('SELECT name FROM head JOIN department ON true')), /column `name` is ambiguous/);
    assert.match(String(reads('SELECT salary FROM head')), /column `salary` is in no table/);
    assert.match(String(reads('SELECT x FROM payroll')), /table `payroll` is not in the schema/);
    assert.match(String(reads('DELETE FROM head')), /DeleteStmt is not a query/);
  });
});

describe('extractAccess follows what PostgreSQL checks', () => {
  const cases: [string, string, unknown][] = [
    [
      'a CTE named nowhere is not checked',
      'WITH x AS (SELECT age FROM head) SELECT name FROM department',
      { department: ['name'] },
    ],
    [
      'a CTE named only by a CTE named nowhere is inlined there, and not checked',
      'WITH x AS (SELECT age FROM head), y AS (SELECT * FROM x) SELECT 1 FROM department',
      { department: [] },
    ],
    [
      'a CTE named twice is planned on its own, and checked',
      'WITH x AS (SELECT age FROM head), y AS (SELECT * FROM x, x AS z) SELECT 1 FROM department',
      { department: [], head: ['age'] },
    ],
    [
      'a recursive CTE naming only itself is not checked',
      'WITH RECURSIVE r(n) AS (SELECT age FROM head UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT 1 FROM department',
      { department: [] },
    ],
    [
      'an ON condition sees only its own join',
      'SELECT 1 FROM head JOIN department ON born_state = department.name JOIN head AS h2 ON h2.age = department.budget',
      { head: ['born_state', 'age'], department: ['name', 'budget'] },
    ],
    [
      'a whole-row reference reads every column',
      'SELECT h FROM head AS h',
      { head: ['head_id', 'name', 'born_state', 'age'] },
    ],
    [
      'ORDER BY an output name reads no input column',
      'SELECT max(budget) AS name FROM department ORDER BY name',
      { department: ['budget'] },
    ],
    [
      'GROUP BY prefers an input column',
      'SELECT max(budget) AS name FROM department GROUP BY name',
      { department: ['budget', 'name'] },
    ],
    ['user is a function, not a column', 'SELECT user FROM head', { head: [] }],
  ];
  for (const [name, sql, expected] of cases) it(name, () => assert.deepEqual(reads(sql), expected));

  it("lists each reference to a table in check order: the query's own tables, its subqueries, then its CTEs", () => {
    const access = extractAccess(
      'WITH x AS (SELECT age FROM head) SELECT name FROM department WHERE budget > (SELECT max(age) FROM x) AND EXISTS (SELECT 1 FROM head AS h WHERE h.name = department.name)',
      schemaFromDdl(ddl).schema,
    );
    assert.deepEqual(access.ok ? access.checks : access, [
      { table: 'department', columns: ['name', 'budget'] },
      { table: 'head', columns: ['name'] },
      { table: 'head', columns: ['age'] },
    ]);
  });
});

describe('parseGrants and checkAccess', () => {
  it('reads column grants, whole-table grants and all tables of a schema', () => {
    const { roles, issues } = parseGrants(
      'GRANT USAGE ON SCHEMA hr TO a; GRANT SELECT (name, age) ON hr.head TO a, b; GRANT ALL ON TABLE hr.department TO a; GRANT SELECT ON ALL TABLES IN SCHEMA hr TO c; GRANT INSERT ON hr.head TO d;',
      ['head', 'management'],
    );
    assert.deepEqual(issues, []);
    assert.deepEqual([...(roles.get('a')?.get('head')?.columns ?? [])], ['name', 'age']);
    assert.equal(roles.get('a')?.get('department')?.all, true);
    assert.equal(roles.get('c')?.get('management')?.all, true);
    assert.equal(roles.get('d')?.size ?? 0, 0);
  });
  it('reports malformed grants with their statement number', () => {
    assert.deepEqual(
      parseGrants('GRANT SELECT (name) ON head TO a;\nGRANT SELEKT ON head TO b;').issues.map(
        (issue) => issue.statement,
      ),
      [2],
    );
    assert.deepEqual(
      parseGrants('GRANT SELECT ON head TO a; CREATE TABLE x (y int);').issues.map((issue) => issue.statement),
      [2],
    );
  });
  it('applies PostgreSQL column privileges', () => {
    const { roles } = parseGrants('GRANT SELECT (name) ON head TO a;');
    const allowed = roles.get('a') ?? new Map();
    assert.deepEqual(checkAccess(allowed, [{ table: 'head', columns: ['name'] }]), { denied: false, inaccessible: [] });
    assert.deepEqual(checkAccess(allowed, [{ table: 'head', columns: [] }]), { denied: false, inaccessible: [] });
    assert.deepEqual(checkAccess(allowed, [{ table: 'head', columns: ['name', 'age'] }]).inaccessible, [
      { table: 'head', columns: ['age'] },
    ]);
    assert.deepEqual(checkAccess(allowed, [{ table: 'department', columns: [] }]).inaccessible, [
      { table: 'department', columns: [] },
    ]);
  });
});

describe('checkRule', () => {
  it('lists every rule the user breaks, missing information included', () => {
    const rules = {
      buy_alcohol: { info: 'age', operator: '>=' as const, value: 21, violation: 'must be 21 or older' },
      rent_car: [
        { info: 'age', operator: '>=' as const, value: 25, violation: 'must be 25 or older' },
        { info: 'license', operator: '==' as const, value: true, violation: 'needs a licence' },
      ],
    };
    assert.deepEqual(checkRule(rules, { age: 23 }), {
      denied: true,
      violations: [
        { action: 'rent_car', violation: 'must be 25 or older' },
        { action: 'rent_car', violation: 'needs a licence' },
      ],
    });
    assert.deepEqual(checkRule(rules, { age: 30, license: true }), { denied: false, violations: [] });
  });
});
