import assert from 'node:assert/strict';
import { appendFile, cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { InputError } from '../errors.ts';
import type { ApprovalResult } from '../pack/approve-pack.ts';
import { loadPack } from '../pack/load-pack.ts';
import type { Manifest } from '../pack/manifest.ts';
import { readTestCases, type TestCase } from '../pack/test-case.ts';
import { readTrajectories } from '../replay/trajectories.ts';
import { replayDecisionSource } from './decision-source.ts';
import type { PackOverview, PolicyDetail } from './review-model.ts';
import { type ReviewServer, startReviewServer } from './review-server.ts';

const airline = fileURLToPath(new URL('../../packs/tau-airline', import.meta.url));

async function airlineCopy(): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), 'agentguard-review-')), 'tau-airline');
  await cp(airline, dir, { recursive: true });
  return dir;
}

async function editManifest(dir: string, edit: (manifest: Manifest) => void): Promise<void> {
  const file = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8')) as Manifest;
  edit(manifest);
  await writeFile(file, JSON.stringify(manifest, null, 2));
}

/** A raw request, so that the Host and Origin headers are exactly what the test says. */
function send<Body>(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: Body }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** Approves as the page does: with the fingerprint of the content it was shown, unless the body says otherwise. */
async function approve(server: ReviewServer, body: Record<string, unknown>) {
  const { fingerprint } = (await send<PackOverview>(`${server.url}api/pack`)).body;
  return send<ApprovalResult>(`${server.url}api/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fingerprint, ...body }),
  });
}

describe('review server', () => {
  let dir: string;
  let server: ReviewServer;
  const verdicts = [
    {
      trajectory: '7-0',
      message_index: 9,
      call_index: 0,
      tool: 'cancel_reservation',
      arguments: { reservation_id: 'ZFA04Y' },
      verdict: 'deny',
      violations: [{ policy: 'cancel.eligibility', message: 'booked more than 24 hours ago' }],
      lookups: [
        {
          tool: 'get_reservation_details',
          arguments: { reservation_id: 'ZFA04Y' },
          result: { reservation_id: 'ZFA04Y', created_at: '2024-05-01T10:00:00' },
        },
      ],
      duration_us: 40,
    },
    {
      trajectory: '8-0',
      message_index: 5,
      call_index: 0,
      tool: 'cancel_reservation',
      arguments: { reservation_id: 'XYZ123' },
      verdict: 'allow',
      violations: [],
      duration_us: 30,
    },
  ];

  before(async () => {
    dir = await airlineCopy();
    const decisionsFile = join(dir, '..', 'verdicts.jsonl');
    await writeFile(decisionsFile, verdicts.map((line) => `${JSON.stringify(line)}\n`).join(''));
    server = await startReviewServer({ pack: dir, decisions: replayDecisionSource(decisionsFile) });
  });
  after(() => server.close());

  it('binds the loopback address and serves the page and its assets', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(server.url);
    assert.match(await page.text(), /<script type="module" src="\/assets\/review.js">/);
    for (const asset of ['review.js', 'highlight.js', 'review.css']) {
      assert.equal((await fetch(`${server.url}assets/${asset}`)).status, 200, asset);
    }
    assert.equal((await fetch(`${server.url}assets/../review-server.ts`)).status, 404);
  });

  it('gives the document with coverage, every policy and the decisions totals', async () => {
    const { status, body } = await send<PackOverview>(`${server.url}api/pack`);
    assert.equal(status, 200);
    const pack = await loadPack(dir, { importGuards: false });
    const states = Object.values(pack.manifest.guards).flatMap((entry) => entry.policies);
    assert.equal(body.policies.length, states.length + pack.manifest.general.length);
    assert.ok(body.coverage.cited > 0 && body.coverage.cited <= body.coverage.sentences);
    assert.ok(body.coverage.citedByEnforced <= body.coverage.cited);
    assert.deepEqual(body.decisions, { source: 'verdicts.jsonl', calls: 2, denied: 1, asked: 0 });
  });

  it("gives a policy's spec, code with its helpers, live test results with their input, and decisions", async () => {
    const { status, body } = await send<PolicyDetail>(`${server.url}api/policies/cancel.eligibility`);
    assert.equal(status, 200);
    assert.equal(body.tool, 'cancel_reservation');
    assert.equal(body.code?.path, 'guards/cancel_reservation/eligibility.ts');
    assert.match(body.code?.source ?? '', /export const check/);
    const helpers = body.code?.helpers.map((helper) => helper.path) ?? [];
    assert.ok(helpers.includes('guards/lib/airline.ts') && helpers.includes('guards/lib/maybe.ts'), `${helpers}`);
    assert.ok(helpers.includes('guards/lib/records.ts'), 'helpers of helpers are shown');
    assert.equal(new Set(helpers).size, helpers.length, 'each helper once');
    const cases = await readTestCases(join(dir, 'tests/cancel_reservation.cases.json'));
    const ownCases = cases.filter((testCase) => testCase.policy === 'cancel.eligibility');
    assert.equal(body.tests.length, ownCases.length);
    assert.ok(body.tests.every((test: { outcome: string }) => test.outcome === 'pass'));
    for (const [index, test] of body.tests.entries()) {
      const { arguments: args, conversation, lookups, now } = ownCases[index] as TestCase;
      assert.deepEqual(test.input.arguments, args);
      assert.deepEqual(test.input.conversation, conversation);
      assert.deepEqual(test.input.lookups, lookups);
      assert.equal(test.input.now, now ?? null);
    }
    assert.equal(body.state.kind, 'enforced');
    assert.deepEqual(body.state.notes[1], { label: 'tests', text: `all ${body.tests.length} pass` });
    assert.deepEqual(
      body.citations.map((citation) => citation.text),
      body.references,
      'each reference with the sentences it cites',
    );
    assert.ok(body.citations.every((citation) => citation.sentences.length > 0));
    assert.equal(body.decisions?.calls, 2);
    assert.equal(body.decisions?.violations, 1);
    assert.equal(body.refusals, 1);
    const shown = body.decisions?.refusedSample.shown[0];
    assert.ok(shown !== undefined);
    assert.deepEqual(shown.call, { name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } });
    assert.deepEqual(shown.lookups, verdicts[0]?.lookups);
    assert.equal(shown.conversation, undefined, 'no conversation without the recorded runs');
    assert.deepEqual(
      body.decisions?.allowedSample.shown.map((allowed) => [allowed.origin, allowed.feedback]),
      [['run 8-0, message 5', null]],
    );
    assert.match(shown.feedback ?? '', /^The call to `cancel_reservation` was blocked/);
    assert.match(shown.feedback ?? '', /booked more than 24 hours ago/);
    assert.match(shown.feedback ?? '', /Policy: "All reservations can be cancelled within 24 hours of booking/);
  });

  it('gives a general policy with its reason and the sentences it cites, and no code, tests or decisions', async () => {
    const { status, body } = await send<PolicyDetail>(`${server.url}api/policies/general.transfer_scope`);
    assert.equal(status, 200);
    assert.equal(body.tool, null);
    assert.equal(body.state.kind, 'general');
    assert.ok(body.citations.length > 0 && body.citations.every((citation) => citation.sentences.length > 0));
    assert.deepEqual([body.code, body.tests, body.decisions, body.refusals], [null, [], null, null]);
  });

  it('names an unknown policy', async () => {
    const { status, body } = await send<{ error: string }>(`${server.url}api/policies/cancel.nothing`);
    assert.equal(status, 404);
    assert.equal(body.error, 'the pack has no policy `cancel.nothing`');
  });

  it('refuses requests from other hosts and origins, and approvals that are not JSON', async () => {
    const port = new URL(server.url).port;
    assert.equal((await send(`${server.url}api/pack`, { headers: { host: `attacker.example:${port}` } })).status, 421);
    const foreign = await send(`${server.url}api/approve`, {
      method: 'POST',
      headers: { origin: 'http://attacker.example', 'content-type': 'application/json' },
      body: '{"by":"x"}',
    });
    assert.equal(foreign.status, 403);
    const form = await send(`${server.url}api/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'by=x',
    });
    assert.equal(form.status, 415);
    assert.equal((await loadPack(dir, { importGuards: false })).manifest.review, undefined);
  });

  it('refuses approval of content not seen, or while a policy is not enforced unless accepted, then records it', async () => {
    await editManifest(dir, (manifest) => {
      const cancel = manifest.guards.cancel_reservation;
      assert.ok(cancel !== undefined);
      cancel.policies[2] = {
        id: 'cancel.reason_obtained',
        state: 'not_enforced',
        reason: 'test case 3 failed',
      };
    });
    const stale = await approve(server, { by: 'policy-owner@example.com', fingerprint: 'what another page showed' });
    assert.equal(stale.status, 409);
    assert.deepEqual(stale.body, { approved: false, changedSinceSeen: true });
    const refused = await approve(server, { by: 'policy-owner@example.com' });
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body, { approved: false, notEnforced: ['cancel.reason_obtained'] });
    assert.equal((await approve(server, {})).status, 400);
    const accepted = await approve(server, { by: 'policy-owner@example.com', acceptNotEnforced: true });
    assert.equal(accepted.status, 200);
    assert.ok(accepted.body.approved);
    assert.deepEqual(accepted.body.review.acceptedNotEnforced, ['cancel.reason_obtained']);
    const { body } = await send<PackOverview>(`${server.url}api/pack`);
    assert.equal(body.reviewed, true);
    assert.equal(body.review?.by, 'policy-owner@example.com');
    const policy = await send<PolicyDetail>(`${server.url}api/policies/cancel.reason_obtained`);
    assert.deepEqual(policy.body.state, {
      kind: 'not_enforced',
      label: 'not enforced',
      notes: [{ label: 'last failure', text: 'test case 3 failed' }],
    });
    assert.ok(body.policies.every((summary) => summary.approved));
  });

  it('marks as not approved only the policies whose guard, helpers, spec or cases changed since the approval', async () => {
    await appendFile(join(dir, 'guards/cancel_reservation/eligibility.ts'), '\n// edited after review\n');
    await appendFile(join(dir, 'guards/lib/certificates.ts'), '\n// edited after review\n');
    const { body } = await send<PackOverview>(`${server.url}api/pack`);
    assert.equal(body.reviewed, false);
    const approved = new Map(body.policies.map((summary) => [summary.id, summary.approved]));
    assert.equal(approved.get('cancel.eligibility'), false, 'its own guard changed');
    assert.equal(approved.get('certificate.amount'), false, 'a helper it imports changed');
    assert.equal(approved.get('certificate.user_asked'), true, 'it does not import the helper that changed');
    assert.equal(approved.get('cancel.not_flown'), true);
    assert.ok(
      body.policies.filter((summary) => summary.tool === 'book_reservation').every((summary) => summary.approved),
    );
  });
});

describe('review server on a validated pack', () => {
  it('shows the denial rate on recorded runs, and labels a policy that refuses most calls for review', async () => {
    const dir = await airlineCopy();
    await editManifest(dir, (manifest) => {
      manifest.validation = {
        runs: 200,
        threshold: 0.5,
        policies: {
          'cancel.eligibility': {
            tool: 'cancel_reservation',
            calls: 69,
            denied: 38,
            denialRate: 38 / 69,
            flagged: true,
          },
          'cancel.not_flown': {
            tool: 'cancel_reservation',
            calls: 69,
            denied: 18,
            denialRate: 18 / 69,
            flagged: false,
          },
        },
      };
    });
    const server = await startReviewServer({ pack: dir });
    try {
      const flagged = (await send<PolicyDetail>(`${server.url}api/policies/cancel.eligibility`)).body.state;
      assert.equal(flagged.label, 'enforced, flagged');
      assert.deepEqual(flagged.notes.at(-1), {
        label: 'flagged for review',
        text: 'refused 38 of 69 recorded calls of its tool (55%): check that it is not stricter than the policy',
      });
      const plain = (await send<PolicyDetail>(`${server.url}api/policies/cancel.not_flown`)).body.state;
      assert.equal(plain.label, 'enforced');
      assert.deepEqual(plain.notes.at(-1), {
        label: 'recorded runs',
        text: 'refused 18 of 69 recorded calls of its tool (26%)',
      });
      const listed = (await send<PackOverview>(`${server.url}api/pack`)).body;
      assert.match(JSON.stringify(listed), /enforced, flagged/);
    } finally {
      await server.close();
    }
  });
});

describe('replayDecisionSource', () => {
  it('gives each decision the conversation before its call when read with the recorded runs', async () => {
    const trajectories = fileURLToPath(new URL('../../data/tau-airline/trajectories-gpt-4o.json', import.meta.url));
    const [run] = await readTrajectories(trajectories);
    assert.ok(run !== undefined);
    const [past] = run.conversation.toolCalls();
    assert.ok(past !== undefined);
    const file = join(await mkdtemp(join(tmpdir(), 'agentguard-review-')), 'verdicts.jsonl');
    const line = { trajectory: run.id, message_index: past.messageIndex, call_index: 0, tool: past.call.name };
    const decided = { ...line, arguments: past.call.arguments, verdict: 'allow', violations: [], duration_us: 1 };
    await writeFile(file, `${JSON.stringify(decided)}\n${JSON.stringify({ ...decided, trajectory: 'nowhere-0' })}\n`);
    const error = await replayDecisionSource(file, { trajectories })
      .read()
      .then(
        () => assert.fail('read a decision of a run not recorded'),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof InputError);
    assert.deepEqual(
      error.issues.map((issue) => issue.location),
      ['line 2 $.trajectory'],
    );
    await writeFile(file, `${JSON.stringify(decided)}\n`);
    const source = replayDecisionSource(file, { trajectories });
    assert.equal((await source.read()).length, 1);
    await writeFile(file, `${JSON.stringify(decided)}\n${JSON.stringify({ ...decided, call_index: 1 })}\n`);
    assert.equal((await source.read()).length, 2, 'a file written anew is read anew');
    const [record] = await source.read();
    assert.deepEqual(record?.conversation, run.conversation.before(past.messageIndex).messages);
    assert.ok((record?.conversation?.length ?? 0) > 0);
  });

  it('names every malformed line', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'agentguard-review-')), 'verdicts.jsonl');
    await writeFile(file, '{"trajectory":"1"}\nnot json\n');
    const error = await replayDecisionSource(file)
      .read()
      .then(
        () => assert.fail('read a malformed file'),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof InputError);
    assert.ok(error.issues.some((issue) => issue.location === 'line 1 $.tool'));
    assert.ok(error.issues.some((issue) => issue.location === 'line 2' && issue.message.startsWith('not JSON')));
  });
});
