import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { fromOpenAIChat } from '../model/openai-chat.ts';
import { writeFixturePack } from '../pack/fixture-pack.ts';
import { loadPack } from '../pack/load-pack.ts';
import { environmentFor } from '../replay/environment.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { openAuditLog } from './audit-log.ts';
import { type AskOutcomeRecord, type AuditRecord, conversationDigest } from './audit-record.ts';
import { auditStats } from './audit-stats.ts';
import { chainHash } from './audit-store.ts';
import { canonicalJson, sha256Hex } from './canonical-json.ts';
import { packFingerprint } from './pack-fingerprint.ts';
import { verifyAuditLog } from './verify-chain.ts';

const run = promisify(execFile);
const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const cli = root('src/cli/main.ts');

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentguard-audit-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const messages = [
  { role: 'user', content: 'Please cancel reservation ZFA04Y, I am mia_li_3668.' },
  { role: 'assistant', content: 'Cancel ZFA04Y? Please confirm (yes).' },
  { role: 'user', content: 'yes' },
];

/** A log of `count` airline verdicts written through the runtime, and what they were. */
async function writeLog(file: string, count: number) {
  const pack = await loadPack(root('packs/tau-airline'));
  const environment = (await environmentFor('tau-airline'))?.();
  assert.ok(environment);
  const log = await openAuditLog(file);
  const runtime = new GuardRuntime([pack], { audit: log });
  const conversation = fromOpenAIChat(messages, 'messages');
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const call = { id: `call_${index}`, name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } };
    await runtime.check(call, { conversation, invoker: environment.invoker, now: environment.now });
    ids.push(call.id);
  }
  await log.flush();
  await runtime.close();
  return { log, pack, conversation, ids };
}

/** A verdict record of a call that needs no pack. */
function thought(id: string): AuditRecord {
  return {
    format: 1,
    time: new Date().toISOString(),
    now: '2024-05-15T20:00:00.000Z',
    call: { id, name: 'think', arguments: {} },
    conversation: { messages: 0, sha256: '' },
    packs: [],
    durationUs: 1,
    verdict: { decision: 'allow', evaluated: 'allow', violations: [], policies: [], errors: [] },
  };
}

function sqlite(file: string, statement: string): void {
  const database = new DatabaseSync(file);
  database.exec(statement);
  database.close();
}

async function verifyJson(file: string): Promise<{ code: number; report: Record<string, unknown> }> {
  try {
    const { stdout } = await run(process.execPath, [cli, 'audit', 'verify', file, '--json']);
    return { code: 0, report: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, report: JSON.parse(failed.stdout) };
  }
}

describe('the SQLite audit log', () => {
  it('records every verdict of the runtime with its call, conversation digest and pack hashes, chained', async () => {
    const file = join(dir, 'verdicts.db');
    const { log, pack, conversation, ids } = await writeLog(file, 5);
    const records: AuditRecord[] = [];
    for await (const entry of log.entries()) records.push(JSON.parse(entry.body));
    assert.deepEqual(
      records.map((record) => record.call.id),
      ids,
    );
    const first = records[0];
    assert.ok(first);
    assert.deepEqual(first.call.arguments, { reservation_id: 'ZFA04Y' });
    assert.equal(first.conversation.sha256, conversationDigest(conversation));
    assert.equal(first.conversation.messages, 3);
    assert.deepEqual(first.packs, [packFingerprint(pack)]);
    assert.equal(first.now, '2024-05-15T20:00:00.000Z');
    assert.ok(['allow', 'deny', 'ask'].includes(first.verdict.decision));
    const report = await verifyAuditLog(log);
    assert.equal(report.ok, true);
    assert.equal(report.records, 5);
    const stats = await auditStats(log);
    assert.equal(stats.tools.cancel_reservation?.calls, 5);
    await log.close();
  });

  it('verify names an edited record and a deleted one, and exits 1', async () => {
    const file = join(dir, 'tampered.db');
    await (await writeLog(file, 6)).log.close();
    sqlite(file, `UPDATE agentguard_audit SET body = replace(body, '"call_2"', '"call_9"') WHERE seq = 3`);
    const edited = await verifyJson(file);
    assert.equal(edited.code, 1);
    assert.equal(edited.report.ok, false);
    assert.equal(edited.report.records, 6);
    assert.deepEqual(edited.report.firstBad, {
      seq: 3,
      problem: 'its content does not match its hash (the record was altered)',
    });

    const deleted = join(dir, 'deleted.db');
    await (await writeLog(deleted, 6)).log.close();
    sqlite(deleted, 'DELETE FROM agentguard_audit WHERE seq = 4');
    const log = await openAuditLog(deleted, { create: false });
    const missing = await verifyAuditLog(log);
    await log.close();
    assert.equal(missing.ok, false);
    assert.deepEqual(missing.firstBad, { seq: 4, problem: 'record 4 is missing: record 5 follows record 3' });
  });

  it('exports, tails and sums up the log from the command line; the export is enough to recheck every hash', async () => {
    const file = join(dir, 'export.db');
    await (await writeLog(file, 4)).log.close();
    const exported = (await run(process.execPath, [cli, 'audit', 'export', file, '--format', 'jsonl'])).stdout;
    const lines = exported
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(lines.length, 4);
    for (const line of lines) assert.equal(chainHash(line.seq, line.prevHash, canonicalJson(line.record)), line.hash);
    const since = lines[2].record.time;
    const later = (await run(process.execPath, [cli, 'audit', 'export', file, '--since', since])).stdout;
    assert.ok(
      later
        .trim()
        .split('\n')
        .every((line) => JSON.parse(line).record.time >= since),
    );
    const future = (await run(process.execPath, [cli, 'audit', 'export', file, '--since', '2999-01-01'])).stdout;
    assert.equal(future, '');
    const tail = (await run(process.execPath, [cli, 'audit', 'tail', file, '-n', '2'])).stdout;
    assert.match(tail, /^#3 .* cancel_reservation \(call_2\) (allow|deny|ask)/);
    assert.equal(tail.trim().split('\n').length, 2);
  });

  it('replay --audit appends every verdict of the replayed runs', async () => {
    const runs = JSON.parse(await readFile(root('data/tau-airline/trajectories-gpt-4o.json'), 'utf8')).slice(0, 3);
    const trajectories = join(dir, 'runs.json');
    await writeFile(trajectories, JSON.stringify(runs));
    const file = join(dir, 'replay.db');
    const args = ['replay', '--pack', root('packs/tau-airline'), '--trajectories', trajectories];
    await run(process.execPath, [cli, ...args, '--out', join(dir, 'verdicts.jsonl'), '--audit', file, '--json']);
    const lines = (await readFile(join(dir, 'verdicts.jsonl'), 'utf8')).trim().split('\n');
    const log = await openAuditLog(file, { create: false });
    const report = await verifyAuditLog(log);
    await log.close();
    assert.equal(report.ok, true);
    assert.equal(report.records, lines.length);
  });

  it('keeps one valid chain when several processes append to one file at once', async () => {
    const file = join(dir, 'shared.db');
    const module = pathToFileURL(root('src/audit/audit-log.ts')).href;
    const writer = (name: string) => `
      import { openAuditLog } from ${JSON.stringify(module)};
      const log = await openAuditLog(${JSON.stringify(file)});
      for (let index = 0; index < 150; index++) {
        log.append({ format: 1, time: new Date().toISOString(), now: '2024-05-15T20:00:00.000Z',
          call: { id: '${name}-' + index, name: 'think', arguments: {} },
          conversation: { messages: 0, sha256: '' }, packs: [], durationUs: 1,
          verdict: { decision: 'allow', evaluated: 'allow', violations: [], policies: [], errors: [] } });
        if (index % 10 === 9) await log.flush();
      }
      await log.close();`;
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) => run(process.execPath, ['--input-type=module', '-e', writer(name)])),
    );
    const log = await openAuditLog(file, { create: false });
    const report = await verifyAuditLog(log);
    const ids = new Set<string>();
    for await (const entry of log.entries()) ids.add((JSON.parse(entry.body) as AuditRecord).call.id);
    await log.close();
    assert.equal(report.ok, true, JSON.stringify(report.firstBad));
    assert.equal(report.records, 600);
    assert.equal(ids.size, 600);
  });

  it("records an ask's outcome after its verdict, linked to it, and sums the answers up", async () => {
    const packDir = await writeFixturePack({
      policies: [{ id: 'act.big', effect: 'ask', body: 'return args.n > 3 ? { message: "a big act" } : undefined;' }],
    });
    const file = join(dir, 'asks.db');
    const log = await openAuditLog(file);
    const runtime = new GuardRuntime([await loadPack(packDir)], { audit: log });
    const context = {
      conversation: fromOpenAIChat([], 'messages'),
      invoker: { invoke: async () => ({}) },
      now: new Date(),
    };
    const asked = { id: 'call_ask', name: 'act', arguments: { n: 9 } };
    assert.equal((await runtime.check(asked, context)).decision, 'ask');
    runtime.settleAsk(asked, { answer: 'approved', ran: true });
    const declined = { id: 'call_declined', name: 'act', arguments: { n: 7 } };
    await runtime.check(declined, context);
    runtime.settleAsk(declined, { answer: 'declined', ran: false });
    runtime.settleAsk({ id: 'call_elsewhere', name: 'act', arguments: { n: 5 } }, { answer: 'timed_out', ran: false });
    await log.flush();
    await runtime.close();

    const entries = [];
    for await (const entry of log.entries()) entries.push(entry);
    const [ask, outcome, , declinedOutcome, unlinked] = entries.map(
      (entry) => JSON.parse(entry.body) as AuditRecord | AskOutcomeRecord,
    );
    assert.equal((ask as AuditRecord).verdict.decision, 'ask');
    assert.deepEqual(outcome, {
      format: 1,
      kind: 'ask_outcome',
      time: outcome?.time,
      call: asked,
      outcome: { answer: 'approved', ran: true },
      ask: { time: ask?.time, sha256: sha256Hex(entries[0]?.body ?? '') },
    });
    assert.deepEqual((declinedOutcome as AskOutcomeRecord).outcome, { answer: 'declined', ran: false });
    assert.equal((declinedOutcome as AskOutcomeRecord).ask?.sha256, sha256Hex(entries[2]?.body ?? ''));
    assert.equal((unlinked as AskOutcomeRecord).ask, null);
    assert.equal((await verifyAuditLog(log)).ok, true);
    const stats = await auditStats(log);
    assert.equal(stats.records, 2);
    assert.deepEqual(stats.decisions, { allow: 0, deny: 0, ask: 2 });
    assert.deepEqual(stats.asks.approved, { count: 1, ran: 1 });
    assert.deepEqual(stats.asks.declined, { count: 1, ran: 0 });
    assert.deepEqual(stats.asks.timed_out, { count: 1, ran: 0 });
    await log.close();

    const verified = await verifyJson(file);
    assert.equal(verified.code, 0);
    const exported = (await run(process.execPath, [cli, 'audit', 'export', file])).stdout.trim().split('\n');
    assert.deepEqual(JSON.parse(exported[1] ?? '').record.outcome, { answer: 'approved', ran: true });
    const tail = (await run(process.execPath, [cli, 'audit', 'tail', file, '-n', '2'])).stdout;
    assert.match(tail, /^#4 .* act \(call_declined\) ask declined, did not run\n#5 .* ask timed out, did not run/);
    const summary = (await run(process.execPath, [cli, 'audit', 'stats', file])).stdout;
    assert.match(summary, /^2 verdicts/);
    assert.match(
      summary,
      /asks settled: 1 approved \(1 ran\), 1 declined \(0 ran\), 0 cancelled \(0 ran\), 1 timed out/,
    );
  });

  it('settleAsk does nothing without an audit sink', async () => {
    const packDir = await writeFixturePack({ policies: [{ id: 'act.any', effect: 'ask', body: 'return undefined;' }] });
    const runtime = new GuardRuntime([await loadPack(packDir)]);
    assert.doesNotThrow(() =>
      runtime.settleAsk({ id: 'x', name: 'act', arguments: { n: 1 } }, { answer: 'cancelled', ran: false }),
    );
    await runtime.close();
  });

  it('keeps records it cannot write, says why, retries them, and gives them up at close', async () => {
    const file = join(dir, 'broken.db');
    const errors: string[] = [];
    const log = await openAuditLog(file, {
      onError: (error) => errors.push(error.message),
      stallMs: 50,
      closeTimeoutMs: 100,
    });
    sqlite(file, 'DROP TABLE agentguard_audit');
    log.append(thought('kept'));
    await assert.rejects(log.flush({ timeoutMs: 200 }), /not written within 200 ms: cannot append to .*no such table/);
    assert.match((log.health() as { reason: string }).reason, /^1 record\(s\) waiting for \d+ ms: .*no such table/);
    assert.equal(errors.length, 1, 'reported once, not at every retry');
    await assert.rejects(log.close(), /not written within 100 ms/);
    assert.match(errors.at(-1) ?? '', /^1 record\(s\) given up at close: /);
  });

  it('keeps at most 100,000 records waiting, drops and reports later ones, and writes the kept ones after', async () => {
    const file = join(dir, 'full.db');
    const errors: string[] = [];
    const log = await openAuditLog(file, { onError: (error) => errors.push(error.message) });
    const holder = new DatabaseSync(file);
    holder.exec('BEGIN EXCLUSIVE');
    for (let index = 0; index < 100_002; index++) log.append(thought(`t${index}`));
    assert.equal(errors.filter((message) => /later records are dropped/.test(message)).length, 1);
    holder.exec('COMMIT');
    holder.close();
    await assert.rejects(log.flush(), /holds 100000 records it cannot write/);
    assert.equal((await verifyAuditLog(log)).records, 100_000);
    const [last] = await log.last(1);
    assert.equal(JSON.parse(last?.body ?? '{}').call.id, 't99999');
    await log.close();
  });

  it('writes the records it kept once the store can be written again', async () => {
    const file = join(dir, 'recovers.db');
    const log = await openAuditLog(file, { onError: () => {}, stallMs: 50 });
    const holder = new DatabaseSync(file);
    holder.exec('BEGIN EXCLUSIVE');
    log.append(thought('waited'));
    await assert.rejects(log.flush({ timeoutMs: 150 }), /database is locked/);
    assert.equal(log.health().ok, false);
    holder.exec('COMMIT');
    holder.close();
    await log.flush();
    assert.deepEqual(log.health(), { ok: true });
    const [entry] = await log.last(1);
    assert.equal(JSON.parse(entry?.body ?? '{}').call.id, 'waited');
    await log.close();
  });
});
