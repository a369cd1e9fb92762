import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openAuditLog } from '../audit/audit-log.ts';
import type { AuditRecord } from '../audit/audit-record.ts';
import { verifyAuditLog } from '../audit/verify-chain.ts';
import { startServeProcess } from './serve-process.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const messages = [
  { role: 'user', content: 'Please cancel reservation ZFA04Y, I am mia_li_3668. My plans changed.' },
  { role: 'assistant', content: 'Cancel ZFA04Y (JFK to SEA)? Please confirm (yes).' },
  { role: 'user', content: 'yes' },
];

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentguard-crash-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('after kill -9 amid 8 checking clients, every verdict answered is in the audit log and the chain verifies', async (t) => {
  const file = join(dir, 'audit.db');
  const service = await startServeProcess([
    '--pack',
    root('packs/tau-airline'),
    '--port',
    '0',
    '--lookups',
    'tau-airline',
    '--audit',
    file,
  ]);
  const answered: string[] = [];
  let killed = false;
  const client = async (name: number) => {
    for (let index = 0; !killed; index++) {
      const id = `client${name}-${index}`;
      const call = {
        id,
        name: index % 2 === 0 ? 'cancel_reservation' : 'get_reservation_details',
        arguments: { reservation_id: 'ZFA04Y' },
      };
      try {
        const response = await fetch(`${service.url}/v1/check`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ call, messages }),
        });
        if (response.status === 200 && ((await response.json()) as { callId: string }).callId === id) answered.push(id);
      } catch {
        return;
      }
    }
  };
  const clients = Array.from({ length: 8 }, (_, name) => client(name));
  const deadline = Date.now() + 10_000;
  while (answered.length < 300 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  const exited = once(service.child, 'exit');
  service.child.kill('SIGKILL');
  killed = true;
  const [, signal] = await exited;
  await Promise.all(clients);
  assert.equal(signal, 'SIGKILL');
  assert.ok(answered.length >= 50, `only ${answered.length} verdicts were answered before the kill`);

  const log = await openAuditLog(file, { create: false });
  const report = await verifyAuditLog(log);
  const logged = new Set<string>();
  for await (const entry of log.entries()) logged.add((JSON.parse(entry.body) as AuditRecord).call.id);
  await log.close();
  assert.equal(report.ok, true, JSON.stringify(report.firstBad));
  assert.deepEqual(
    answered.filter((id) => !logged.has(id)),
    [],
  );
  assert.ok(report.records >= answered.length);
  t.diagnostic(
    `${answered.length} verdicts answered before the kill; ${report.records} records in the log, chain intact`,
  );
});
