import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { openAuditLog } from '../audit/audit-log.ts';
import type { AuditRecord } from '../audit/audit-record.ts';
import { verdictReportSchema } from '../model/verdict-report.ts';
import { loadPack } from '../pack/load-pack.ts';
import { environmentFor } from '../replay/environment.ts';
import { checkRequestSchema } from './check-request.ts';
import { createService } from './create-service.ts';
import { noLookups } from './lookups.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const run = promisify(execFile);

const call = { id: 'call_1', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } };
const messages = [
  { role: 'user', content: 'Please cancel reservation ZFA04Y, I am mia_li_3668. My plans changed.' },
  { role: 'assistant', content: 'Cancel ZFA04Y (JFK to SEA)? Please confirm (yes).' },
  { role: 'user', content: 'yes' },
];

let app: FastifyInstance;
let base: string;
let dir: string;

before(async () => {
  const environment = (await environmentFor('tau-airline'))?.();
  assert.ok(environment);
  app = await createService({
    packs: [await loadPack(root('packs/tau-airline'))],
    invoker: environment.invoker,
    clock: () => environment.now,
    bodyLimit: 64 * 1024,
    requestTimeoutMs: 500,
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'agentguard-service-'));
});

after(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

const post = (body: string, contentType = 'application/json') =>
  fetch(`${base}/v1/check`, { method: 'POST', headers: { 'content-type': contentType }, body });

describe('the decision service', () => {
  it('answers a verdict in the shape `agentguard check` prints', async () => {
    const response = await post(JSON.stringify({ call, messages, now: '2024-05-15T15:00:00-05:00' }));
    assert.equal(response.status, 200);
    const verdict = verdictReportSchema.parse(await response.json());
    const callFile = join(dir, 'call.json');
    const conversationFile = join(dir, 'conversation.json');
    await writeFile(callFile, JSON.stringify(call));
    await writeFile(conversationFile, JSON.stringify(messages));
    const printed = await run(process.execPath, [
      root('src/cli/main.ts'),
      'check',
      '--pack',
      root('packs/tau-airline'),
      '--call',
      callFile,
      '--conversation',
      conversationFile,
      '--audit',
      join(dir, 'check.db'),
    ]).catch((error: { stdout: string }) => error);
    const expected = JSON.parse(printed.stdout);
    assert.deepEqual(
      { ...verdict, diagnostics: { ...verdict.diagnostics, durationUs: 0 } },
      { ...expected, diagnostics: { ...expected.diagnostics, durationUs: 0 } },
    );
    assert.equal(verdict.decision, 'deny');
    assert.match(verdict.feedback, /was blocked/);
    const log = await openAuditLog(join(dir, 'check.db'), { create: false });
    const [entry] = await log.last(5);
    await log.close();
    assert.equal((JSON.parse(entry?.body ?? '{}') as AuditRecord).call.id, 'call_1');
  });

  it('answers 400 naming every problem by its JSON path', async () => {
    const wrongTypes = await post(
      JSON.stringify({
        call: { id: 'c', name: '', arguments: [] },
        messages: [{ role: 'user', content: 'hi' }, { role: 'bot' }],
        now: 'tomorrow',
      }),
    );
    assert.equal(wrongTypes.status, 400);
    const problem = (await wrongTypes.json()) as { error: string; issues: { location: string }[] };
    assert.equal(problem.error, 'invalid_input');
    assert.deepEqual(
      problem.issues.map((issue) => issue.location),
      ['$.call.name', '$.call.arguments', '$.messages[1].role', '$.now'],
    );

    const badArguments = await post(
      JSON.stringify({
        call,
        messages: [{ role: 'assistant', tool_calls: [{ id: 'x', function: { name: 'think', arguments: '{oops' } }] }],
      }),
    );
    assert.equal(badArguments.status, 400);
    assert.match(JSON.stringify(await badArguments.json()), /\$\.messages\[0\]\.tool_calls\[0\]\.function\.arguments/);

    const notJson = await post('{"call": {"id": "c",\n "name": }');
    assert.equal(notJson.status, 400);
    assert.match(((await notJson.json()) as { message: string }).message, /not valid JSON/);

    for (const body of ['', 'null', '[]', '"call"', '{"call": null}', '{"extra": 1, "call": {}}']) {
      assert.equal((await post(body)).status, 400, body);
    }
    const plain = await post('{}', 'text/plain');
    assert.equal(plain.status, 415);
    assert.equal(
      ((await plain.json()) as { message: string }).message,
      'the request body must be `application/json`, not `text/plain`',
    );
    const local = await post(JSON.stringify({ call, now: '2024-05-15T15:00:00' }));
    assert.equal(local.status, 400);
    assert.match(
      JSON.stringify(await local.json()),
      /with an offset: add one, e\.g\. `2024-05-15T15:00:00Z` or `2024-05-15T15:00:00-05:00`/,
    );
  });

  it('answers 405 with Allow for another method on a route, 404 off the routes', async () => {
    const get = await fetch(`${base}/v1/check`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal(((await get.json()) as { error: string }).error, 'method_not_allowed');
    const del = await fetch(`${base}/healthz`, { method: 'DELETE' });
    assert.equal(del.status, 405);
    assert.equal(del.headers.get('allow'), 'GET, HEAD');
  });

  it('answers 413 to a body over the limit and keeps serving', async () => {
    const huge = JSON.stringify({ call, messages: [{ role: 'user', content: 'x'.repeat(100_000) }] });
    const response = await post(huge);
    assert.equal(response.status, 413);
    const answer = (await response.json()) as { error: string; message: string };
    assert.equal(answer.error, 'body_too_large');
    assert.match(answer.message, /^the request body is over the limit of \d+ bytes$/);
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
  });

  it('drops a client that sends too slowly, serving others meanwhile', async () => {
    const socket = connect(new URL(base).port as unknown as number, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /v1/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ca',
    );
    const closed = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
    });
    const meanwhile = await post(JSON.stringify({ call, messages }));
    assert.equal(meanwhile.status, 200);
    assert.match(await closed, /^HTTP\/1\.1 408/);
  });

  it('answers 503, and no verdict, when the verdict cannot be recorded', async () => {
    const file = join(dir, 'failing.db');
    const audit = await openAuditLog(file, { onError: () => {}, closeTimeoutMs: 100 });
    const audited = await createService({
      packs: [await loadPack(root('packs/tau-airline'))],
      invoker: noLookups,
      audit,
      auditTimeoutMs: 300,
    });
    // A conversation nested too deeply to digest is still decided and recorded, its digest saying why.
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const nestedCall = { id: 'x', function: { name: 'think', arguments: `{"a": ${deep(20_000)}}` } };
    const check = (callArguments: string, messages: unknown[] = []) =>
      audited.inject({
        method: 'POST',
        url: '/v1/check',
        headers: { 'content-type': 'application/json' },
        payload: `{"call": {"id": "c", "name": "think", "arguments": ${callArguments}}, "messages": ${JSON.stringify(messages)}}`,
      });
    assert.equal((await check('{"thought": "x"}', [{ role: 'assistant', tool_calls: [nestedCall] }])).statusCode, 200);
    const [recorded] = await audit.last(1);
    assert.match((JSON.parse(recorded?.body ?? '{}') as AuditRecord).conversation.sha256, /^unavailable: /);
    // Arguments nested too deeply to serialise: decided (the runtime never throws), but not recordable, so no verdict.
    const unrecordable = await check(`{"thought": ${deep(50_000)}}`);
    assert.equal(unrecordable.statusCode, 503);
    assert.match(unrecordable.json().message, /cannot be serialised/);
    assert.equal(
      (await post(`{"call": {"id": "c", "name": "think", "arguments": {"thought": ${deep(20_000)}}}}`)).status,
      200,
    );

    const database = new DatabaseSync(file);
    database.exec('DROP TABLE agentguard_audit');
    database.close();
    const response = await audited.inject({ method: 'POST', url: '/v1/check', payload: { call, messages } });
    assert.equal(response.statusCode, 503);
    assert.equal(response.json().error, 'audit_unavailable');
    assert.match(response.json().message, /not written within 300 ms: .*no such table/);
    await audited.close();
    await assert.rejects(audit.close(), /no such table/);
  });

  it('serves its health and an OpenAPI document written from the schemas it validates with', async () => {
    assert.deepEqual(await (await fetch(`${base}/healthz`)).json(), {
      status: 'ok',
      packs: ['tau-airline'],
      guards: { status: 'ok' },
    });
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    assert.equal(document.openapi, '3.1.0');
    assert.deepEqual(Object.keys(document.paths).sort(), ['/healthz', '/openapi.json', '/v1/check']);
    const { $schema: _dialect, ...request } = z.toJSONSchema(checkRequestSchema, {
      io: 'input',
      unrepresentable: 'any',
    });
    assert.deepEqual(document.components.schemas.CheckRequest, JSON.parse(JSON.stringify(request)));
    assert.equal((await fetch(`${base}/nowhere`)).status, 404);
  });
});
