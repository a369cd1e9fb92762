import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
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
