import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { text } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openAuditLog } from '../audit/audit-log.ts';
import { Conversation } from '../model/conversation.ts';
import { writeFixturePack } from '../pack/fixture-pack.ts';
import { loadPack } from '../pack/load-pack.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { noLookups } from '../service/lookups.ts';

const cli = fileURLToPath(new URL('main.ts', import.meta.url));
const agentguard = (...args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [cli, ...args], (error, stdout, stderr) =>
      resolve({ status: error === null ? 0 : (error.code as number), stdout, stderr }),
    );
  });

let dir: string;
let log: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentguard-audit-cli-'));
  log = join(dir, 'audit.db');
  const pack = await loadPack(
    await writeFixturePack({
      policies: [{ id: 'act.limit', body: 'return args.n > 3 ? { message: "too many" } : undefined;' }],
    }),
  );
  const audit = await openAuditLog(log);
  const runtime = new GuardRuntime([pack], { audit });
  for (const n of [1, 5, 2]) {
    await runtime.check(
      { id: `call_${n}`, name: 'act', arguments: { n } },
      { conversation: new Conversation([]), invoker: noLookups, now: new Date() },
    );
  }
  await audit.flush();
  await runtime.close();
  await audit.close();
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('agentguard audit', () => {
  it('export stops quietly when its reader closes the pipe (| head -1)', async () => {
    const child = spawn(process.execPath, [cli, 'audit', 'export', log], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    const stderr = text(child.stderr);
    const [code] = await once(child, 'close');
    assert.equal(await stderr, '');
    assert.equal(code, 0);
  });
  it('tail -n 0 prints nothing, as tail does; a count that is not a whole number is refused', async () => {
    assert.deepEqual(await agentguard('audit', 'tail', log, '-n', '0'), { status: 0, stdout: '', stderr: '' });
    const refused = await agentguard('audit', 'tail', log, '-n', '-1');
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /--lines: expected a whole number, got `-1`/);
  });
  it('verify --expect-head passes while the head is kept, and fails once the tail is cut off', async () => {
    const first = JSON.parse((await agentguard('audit', 'verify', log, '--json')).stdout) as { head: string };
    const kept = await agentguard('audit', 'verify', log, '--expect-head', first.head);
    assert.equal(kept.status, 0, kept.stderr);
    assert.match(kept.stdout, /3 records, chain intact; .*the expected head is record 3/);
    const database = new DatabaseSync(log);
    database.exec('DELETE FROM agentguard_audit WHERE seq = 3');
    database.close();
    assert.equal((await agentguard('audit', 'verify', log)).status, 0);
    const cut = await agentguard('audit', 'verify', log, '--expect-head', first.head);
    assert.equal(cut.status, 1);
    assert.match(
      cut.stdout,
      /2 records, chain intact, but no record has the expected head .*: the tail it ended was cut off/,
    );
    const json = JSON.parse((await agentguard('audit', 'verify', log, '--expect-head', first.head, '--json')).stdout);
    assert.equal(json.ok, false);
    assert.equal(json.expectedHead.hash, first.head);
  });
});
