import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { verdictReport, verdictReportSchema } from '../model/verdict-report.ts';
import { loadPack } from '../pack/load-pack.ts';
import type { Environment } from '../replay/environment.ts';
import { environmentFor } from '../replay/environment.ts';
import { readTrajectories } from '../replay/trajectories.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { type ServeProcess, startServeProcess } from './serve-process.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const trajectories = root('data/tau-airline/trajectories-gpt-4o.json');

// The agent's backend: it answers lookups from the environment of the run being replayed, which the test advances by
// executing each call as the recorded run did, so the service reads the same state as the in-process runtime.
let environment: Environment | undefined;
const backend = createServer(async (request, response) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  const { tool, arguments: args } = JSON.parse(body) as { tool: string; arguments: Record<string, unknown> };
  try {
    const value = await environment?.invoker.invoke(tool, args);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  } catch (error) {
    response
      .writeHead(422, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: (error as Error).message }));
  }
});
let service: ServeProcess;

before(async () => {
  backend.listen(0, '127.0.0.1');
  await once(backend, 'listening');
  const lookups = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/lookups`;
  service = await startServeProcess([
    '--pack',
    root('packs/tau-airline'),
    '--port',
    '0',
    '--lookups',
    lookups,
    '--timeout-ms',
    '5000',
  ]);
});

after(async () => {
  await service.stop();
  backend.close();
});

it("the service's verdicts equal the in-process runtime's on all 1,164 calls of the 200 airline runs", async () => {
  const runs = await readTrajectories(trajectories);
  const raw = JSON.parse(await readFile(trajectories, 'utf8')) as { traj: unknown[] }[];
  const fresh = await environmentFor('tau-airline');
  assert.ok(fresh);
  const runtime = new GuardRuntime([await loadPack(root('packs/tau-airline'))], { timeoutMs: 5000 });
  let compared = 0;
  const differing: string[] = [];
  for (const [index, run] of runs.entries()) {
    environment = fresh();
    const messages = raw[index]?.traj ?? [];
    for (const { call, messageIndex } of run.conversation.toolCalls()) {
      const local = await runtime.check(call, {
        conversation: run.conversation.before(messageIndex),
        invoker: environment.invoker,
        now: environment.now,
      });
      const response = await fetch(`${service.url}/v1/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ call, messages: messages.slice(0, messageIndex), now: environment.now.toISOString() }),
      });
      assert.equal(response.status, 200);
      const remote = verdictReportSchema.parse(await response.json());
      const expected = JSON.parse(JSON.stringify(verdictReport(local)));
      expected.diagnostics.durationUs = remote.diagnostics.durationUs;
      try {
        assert.deepEqual(remote, expected);
      } catch {
        differing.push(`${run.id} message ${messageIndex} ${call.name}: ${remote.decision} vs ${local.decision}`);
      }
      compared++;
      environment.run(call.name, call.arguments);
    }
  }
  await runtime.close();
  assert.equal(compared, 1164);
  assert.deepEqual(differing, []);
});
