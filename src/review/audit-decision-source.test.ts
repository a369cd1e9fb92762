import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openAuditLog } from '../audit/audit-log.ts';
import { conversationDigest } from '../audit/audit-record.ts';
import { fromOpenAIChat } from '../model/openai-chat.ts';
import { writeFixturePack } from '../pack/fixture-pack.ts';
import { loadPack } from '../pack/load-pack.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { auditDecisionSource } from './audit-decision-source.ts';
import type { DecisionRecord } from './decision-source.ts';
import { replayDecisionSource } from './decision-source.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

it('reads from an audit log the decisions a replay file holds for the same runs', async () => {
  const work = await mkdtemp(join(tmpdir(), 'agentguard-review-audit-'));
  const log = join(work, 'audit.db');
  const verdicts = join(work, 'verdicts.jsonl');
  const replayed = spawnSync(
    process.execPath,
    [
      'src/cli/main.ts',
      'replay',
      '--pack',
      'packs/tau-airline',
      '--trajectories',
      'data/tau-airline/trajectories-gpt-4o.json',
      '--out',
      verdicts,
      '--audit',
      log,
    ],
    { cwd: root, encoding: 'utf8' },
  );
  assert.equal(replayed.status, 0, replayed.stderr);
  const decided = ({ call, decision, violations }: DecisionRecord) => ({ call, decision, violations });
  const fromLog = await auditDecisionSource(log).read();
  assert.equal(fromLog.length, 1164);
  assert.ok(fromLog.every((record) => record.time !== undefined));
  assert.deepEqual(fromLog.map(decided), (await replayDecisionSource(verdicts).read()).map(decided));
  assert.equal(auditDecisionSource('postgres://guard:secret@127.0.0.1:5432/audit').label.includes('secret'), false);
});

it('gives an asked call the outcome recorded for it, and what the log keeps of the conversation', async () => {
  const packDir = await writeFixturePack({
    policies: [{ id: 'act.big', effect: 'ask', body: 'return args.n > 3 ? { message: "a big act" } : undefined;' }],
  });
  const file = join(await mkdtemp(join(tmpdir(), 'agentguard-review-audit-')), 'asks.db');
  const log = await openAuditLog(file);
  const runtime = new GuardRuntime([await loadPack(packDir)], { audit: log });
  const messages = [{ role: 'user', content: 'Do the big act.' }];
  const context = {
    conversation: fromOpenAIChat(messages, 'messages'),
    invoker: { invoke: async () => ({}) },
    now: new Date('2024-05-15T15:00:00Z'),
  };
  const approved = { id: 'call_approved', name: 'act', arguments: { n: 9 } };
  const unsettled = { id: 'call_unsettled', name: 'act', arguments: { n: 8 } };
  await runtime.check(approved, context);
  await runtime.check(unsettled, context);
  await runtime.check({ id: 'call_small', name: 'act', arguments: { n: 1 } }, context);
  runtime.settleAsk(approved, { answer: 'approved', ran: true });
  await log.flush();
  await runtime.close();
  await log.close();

  const records = await auditDecisionSource(file).read();
  assert.deepEqual(
    records.map((record) => [record.call.arguments, record.decision, record.askOutcome]),
    [
      [{ n: 9 }, 'ask', { answer: 'approved', ran: true }],
      [{ n: 8 }, 'ask', undefined],
      [{ n: 1 }, 'allow', undefined],
    ],
  );
  assert.equal(records[0]?.now, '2024-05-15T15:00:00.000Z');
  assert.deepEqual(records[0]?.conversationDigest, {
    messages: 1,
    sha256: conversationDigest(context.conversation),
  });
});
