import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { openAuditLog } from './audit-log.ts';
import type { AuditRecord } from './audit-record.ts';
import { verifyAuditLog } from './verify-chain.ts';

// PostgreSQL compiled to WebAssembly, served over the PostgreSQL wire protocol on 127.0.0.1: the audit log talks to
// it with `pg` exactly as it talks to any PostgreSQL server.
let database: PGlite;
let server: PGLiteSocketServer;
let url: string;

before(async () => {
  database = await PGlite.create();
  server = new PGLiteSocketServer({ db: database, host: '127.0.0.1', port: 0, maxConnections: 8 });
  await server.start();
  const address = server.getServerConn();
  url = `postgres://postgres@${address}/postgres`;
});

after(async () => {
  await server.stop();
  await database.close();
});

function record(id: string): AuditRecord {
  return {
    format: 1,
    time: new Date().toISOString(),
    now: '2024-05-15T20:00:00.000Z',
    call: { id, name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } },
    conversation: { messages: 0, sha256: '0'.repeat(64) },
    verdict: { decision: 'allow', evaluated: 'allow', violations: [], policies: [], errors: [] },
    packs: [],
    durationUs: 12,
  };
}

it('two writers on one PostgreSQL table keep one chain, and an edited record breaks it', async () => {
  const [first, second] = await Promise.all([openAuditLog(url), openAuditLog(url)]);
  assert.ok(first !== undefined && second !== undefined);
  for (let round = 0; round < 20; round++) {
    for (let index = 0; index < 5; index++) {
      first.append(record(`a-${round}-${index}`));
      second.append(record(`b-${round}-${index}`));
    }
    await Promise.all([first.flush(), second.flush()]);
  }
  const report = await verifyAuditLog(first);
  assert.equal(report.ok, true, JSON.stringify(report.firstBad));
  assert.equal(report.records, 200);
  const ids = new Set<string>();
  for await (const entry of first.entries()) ids.add((JSON.parse(entry.body) as AuditRecord).call.id);
  assert.equal(ids.size, 200);
  await Promise.all([first.close(), second.close()]);

  const client = new pg.Client(url);
  await client.connect();
  await client.query(
    `UPDATE agentguard_audit SET body = replace(body, '"decision":"allow"', '"decision":"deny"') WHERE seq = 77`,
  );
  await client.end();
  const reader = await openAuditLog(url, { create: false });
  const tampered = await verifyAuditLog(reader);
  await reader.close();
  assert.equal(tampered.ok, false);
  assert.equal(tampered.firstBad?.seq, 77);
  assert.match(tampered.firstBad?.problem ?? '', /does not match its hash/);
});

it('a lock another session holds on the table holds no event loop; health says so; the record is written after', async () => {
  const log = await openAuditLog(url, { stallMs: 200, onError: () => {} });
  log.append(record('before'));
  await log.flush();
  const holder = new pg.Client(url);
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('LOCK TABLE agentguard_audit IN ACCESS EXCLUSIVE MODE');
  let lag = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    lag = Math.max(lag, now - last - 10);
    last = now;
  }, 10);
  log.append(record('during'));
  await assert.rejects(log.flush({ timeoutMs: 500 }), /not written within 500 ms/);
  const health = log.health();
  assert.equal(health.ok, false);
  assert.match(health.ok ? '' : health.reason, /^1 record\(s\) waiting for \d+ ms: /);
  await holder.query('COMMIT');
  await holder.end();
  await log.flush();
  clearInterval(ticker);
  assert.ok(lag < 100, `the event loop waited ${Math.round(lag)} ms`);
  assert.deepEqual(log.health(), { ok: true });
  const [written] = await log.last(1);
  assert.equal((JSON.parse(written?.body ?? '{}') as AuditRecord).call.id, 'during');
  await log.close();
});
