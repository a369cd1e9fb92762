import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type AuditLog, openAuditLog } from '../audit/audit-log.ts';
import type { AuditRecord } from '../audit/audit-record.ts';
import { verifyAuditLog } from '../audit/verify-chain.ts';
import { loadPack } from '../pack/load-pack.ts';
import { quantile } from '../replay/report.ts';
import { createService } from './create-service.ts';
import { noLookups } from './lookups.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

let dir: string;
let file: string;
let audit: AuditLog;
let app: FastifyInstance;
let base: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentguard-outage-'));
  file = join(dir, 'audit.db');
  audit = await openAuditLog(file, { onError: () => {}, stallMs: 250 });
  app = await createService({
    packs: [await loadPack(root('packs/tau-airline'))],
    invoker: noLookups,
    audit,
    auditTimeoutMs: 1000,
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

after(async () => {
  await app.close();
  await audit.close();
  await rm(dir, { recursive: true, force: true });
});

/** Another process that holds an exclusive lock on the audit file until `release` is called. */
async function holdLock(): Promise<{ release(): Promise<void> }> {
  const script = `
    const { DatabaseSync } = require('node:sqlite');
    const database = new DatabaseSync(${JSON.stringify(file)});
    database.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => { database.exec('COMMIT'); database.close(); process.exit(0); });`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  await once(child.stdout as NodeJS.ReadableStream, 'data');
  return {
    async release() {
      child.stdin?.write('go\n');
      await once(child, 'exit');
    },
  };
}

const check = (id: string) =>
  fetch(`${base}/v1/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ call: { id, name: 'think', arguments: { thought: 'x' } } }),
  });

/** Latencies of `count` sequential requests, in milliseconds: p50 and the largest. */
async function latency(request: () => Promise<Response>, count = 40): Promise<{ p50: number; max: number }> {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await (await request()).arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: Math.round(quantile(times, 0.5) * 10) / 10, max: Math.round((times.at(-1) ?? 0) * 10) / 10 };
}

const health = () => fetch(`${base}/healthz`);
const badRequest = () =>
  fetch(`${base}/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

it('a lock held on the SQLite audit file slows neither health nor unaudited requests; health says why', async (t) => {
  assert.equal((await check('before')).status, 200);
  const free = {
    health: await latency(health),
    badRequest: await latency(badRequest),
    check: await latency(() => check('free')),
  };

  const lock = await holdLock();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  // Checks that wait for their record: the first ones are answered 503 at the audit deadline, later ones once the
  // lock is released, within their deadline.
  const early = ['early-1', 'early-2', 'early-3'].map(async (id) => ({ id, status: (await check(id)).status }));
  const locked = { health: await latency(health), badRequest: await latency(badRequest) };
  await new Promise((resolve) => setTimeout(resolve, 300));
  const failing = await health();
  assert.equal(failing.status, 503);
  const body = (await failing.json()) as { status: string; audit: { status: string; reason: string } };
  assert.equal(body.status, 'failing');
  assert.equal(body.audit.status, 'failing');
  assert.match(body.audit.reason, /record\(s\) waiting for \d+ ms: cannot append to .*: database is locked/);
  const earlyAnswers = await Promise.all(early);
  assert.deepEqual(
    earlyAnswers.map((answer) => answer.status),
    [503, 503, 503],
  );
  const late = ['late-1', 'late-2'].map(async (id) => ({ id, status: (await check(id)).status }));
  await new Promise((resolve) => setTimeout(resolve, 300));
  delay.disable();
  await lock.release();
  const lateAnswers = await Promise.all(late);
  assert.deepEqual(
    lateAnswers.map((answer) => answer.status),
    [200, 200],
  );
  assert.equal((await health()).status, 200);

  t.diagnostic(`free: ${JSON.stringify(free)}`);
  t.diagnostic(`locked: ${JSON.stringify(locked)}; largest event loop delay ${Math.round(delay.max / 1e6)} ms`);
  assert.ok(delay.max / 1e6 < 250, `the event loop was held ${Math.round(delay.max / 1e6)} ms under the lock`);
  // Loose bounds: the lock used to hold the event loop for the busy timeout (seconds).
  assert.ok(locked.health.max < 250, `health under the lock: ${JSON.stringify(locked.health)}`);
  assert.ok(locked.badRequest.max < 250, `a 400 under the lock: ${JSON.stringify(locked.badRequest)}`);

  // Every acknowledged verdict is in the log; so are those answered 503, written once the lock was released.
  await audit.flush();
  const ids = new Set<string>();
  for await (const entry of audit.entries()) ids.add((JSON.parse(entry.body) as AuditRecord).call.id);
  for (const id of ['before', 'free', 'late-1', 'late-2', 'early-1', 'early-2', 'early-3']) assert.ok(ids.has(id), id);
  assert.equal((await verifyAuditLog(audit)).ok, true);
});
