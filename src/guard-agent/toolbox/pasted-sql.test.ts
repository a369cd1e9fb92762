import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parseGrants } from './grants.ts';
import { readPastedSql } from './pasted-sql.ts';
import { loadPostgresParser } from './postgres-parser.ts';
import { schemaFromDdl } from './schema.ts';

before(() => loadPostgresParser());

describe('schemaFromDdl reads schemas as dumps print them', () => {
  it('reads reserved words, odd names, mixed case and qualified names as PostgreSQL names them', () => {
    const { schema, issues } = schemaFromDdl(
      `CREATE TABLE hr.Trip (start integer NOT NULL, end integer, from text, ORDER bigint, user text, check real,
        official_ratings_(millions) double precision, "FirstName" text, Upper int, constraint text, primary text);
       -- a comment; with a semicolon
       CREATE TABLE "Order" (id int DEFAULT 0, note text DEFAULT 'a;b');`,
    );
    assert.deepEqual(issues, []);
    assert.deepEqual(schema.get('trip'), [
      'start',
      'end',
      'from',
      'order',
      'user',
      'check',
      'official_ratings_(millions)',
      'FirstName',
      'upper',
      'constraint',
      'primary',
    ]);
    assert.deepEqual(schema.get('Order'), ['id', 'note']);
  });

  it('reports what it cannot read, and leaves out tables it cannot know', () => {
    const { schema, issues } = schemaFromDdl(
      'CREATE TABLE a (x int); CREATE TABLE b (y int,, z int); CREATE TABLE c (LIKE a); CREATE TABLE s1.d (x int); CREATE TABLE s2.d (y int);',
    );
    assert.deepEqual([...schema.keys()], ['a']);
    assert.equal(issues.length, 3);
    assert.match(issues[0] ?? '', /^statement 2: syntax error at or near ","/);
    assert.match(issues[1] ?? '', /`c` come from another table/);
    assert.match(issues[2] ?? '', /`d` is declared 2 times/);
  });

  it('reads names a dump prints bare that PostgreSQL cannot scan or parse', () => {
    const { schema, issues } = schemaFromDdl(
      'CREATE TABLE airport (%_change_2007 text, 2007_total real, name/title text, rank# int, share(%) real);',
    );
    assert.deepEqual(issues, []);
    assert.deepEqual(schema.get('airport'), ['%_change_2007', '2007_total', 'name/title', 'rank#', 'share(%)']);
  });

  it('quotes a word only where that makes the parser read further', () => {
    const [statement] = readPastedSql('GRANT SELECT (from, end, "Total", ratings_(millions)) ON s.order TO u');
    assert.equal(statement?.ok, true);
    assert.deepEqual(statement?.ok === true ? statement.quoted : [], ['from', 'end', 'ratings_(millions)']);
  });
});

describe('parseGrants follows PostgreSQL', () => {
  const tables = ['head', 'trip'];
  it('reads bare reserved words in column lists', () => {
    const grants = parseGrants('GRANT SELECT (start, end, from) ON hr.trip TO hr_User_1;', tables);
    assert.deepEqual(grants.issues, []);
    assert.deepEqual([...(grants.permissionsOf('hr_User_1').get('trip')?.columns ?? [])], ['start', 'end', 'from']);
  });

  it('applies REVOKE: a table revoke takes its columns too; a column revoke leaves a table grant', () => {
    const grants = parseGrants(
      `GRANT SELECT (start, end) ON trip TO a; REVOKE SELECT (end) ON trip FROM a;
       GRANT SELECT ON head TO a; REVOKE SELECT (name) ON head FROM a;
       GRANT SELECT (name) ON head TO b; REVOKE ALL ON head FROM b;
       GRANT SELECT ON trip TO c; REVOKE GRANT OPTION FOR SELECT ON trip FROM c;`,
      tables,
    );
    assert.deepEqual([...(grants.permissionsOf('a').get('trip')?.columns ?? [])], ['start']);
    assert.equal(grants.permissionsOf('a').get('head')?.all, true);
    assert.equal(grants.permissionsOf('b').get('head'), undefined);
    assert.equal(grants.permissionsOf('c').get('trip')?.all, true);
  });

  it('gives every role what PUBLIC and the roles it inherits from hold', () => {
    const grants = parseGrants(
      `GRANT SELECT (start) ON trip TO PUBLIC; GRANT SELECT ON head TO reader; GRANT reader TO a;
       GRANT reader TO b WITH INHERIT FALSE; GRANT reader TO c; REVOKE reader FROM c; GRANT SELECT (x) ON head TO "Mixed";`,
      tables,
    );
    assert.deepEqual([...(grants.permissionsOf('anyone').get('trip')?.columns ?? [])], ['start']);
    assert.equal(grants.permissionsOf('A').get('head')?.all, true);
    assert.equal(grants.permissionsOf('b').get('head'), undefined);
    assert.equal(grants.permissionsOf('c').get('head'), undefined);
    assert.deepEqual([...(grants.permissionsOf('Mixed').get('head')?.columns ?? [])], ['x']);
    assert.equal(grants.permissionsOf('mixed').get('head'), undefined);
  });
});
