import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GuardAgent } from '../guard-agent/guard-agent.ts';
import { DemonstrationMemory } from '../guard-agent/memory.ts';
import { createToolbox } from '../guard-agent/toolbox/toolbox.ts';
import { Budget } from '../llm/budget.ts';
import { RecordingModel } from '../llm/cassette.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'src/cli/main.ts'), ...args], { cwd: root, encoding: 'utf8' });
const cliAsync = (...args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [join(root, 'src/cli/main.ts'), ...args], { cwd: root }, (error, stdout, stderr) =>
      resolve({ status: error === null ? 0 : (error.code as number), stdout, stderr }),
    );
  });
const work = await mkdtemp(join(tmpdir(), 'agentguard-cli-'));
const file = async (name: string, value: unknown) => {
  const path = join(work, name);
  await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

/** The quick start's call, conversation and lookups (README). */
const zfaCall = { id: 'call_1', name: 'cancel_reservation', arguments: { reservation_id: 'ZFA04Y' } };
const zfaChat = [
  { role: 'user', content: 'Hi, I am mia_li_3668. Please cancel reservation ZFA04Y, my plans changed.' },
  { role: 'assistant', content: 'Reservation ZFA04Y (JFK to SEA, economy, no insurance). Shall I cancel it?' },
  { role: 'user', content: 'Yes, please go ahead.' },
];
const zfaRecords = [
  {
    tool: 'get_reservation_details',
    arguments: { reservation_id: 'ZFA04Y' },
    result: {
      reservation_id: 'ZFA04Y',
      user_id: 'mia_li_3668',
      cabin: 'economy',
      insurance: 'no',
      created_at: '2024-05-01T10:00:00',
      flights: [{ flight_number: 'HAT136', date: '2024-05-20', price: 150, origin: 'JFK', destination: 'SEA' }],
      passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }],
    },
  },
  {
    tool: 'get_flight_on_date_details',
    arguments: { flight_number: 'HAT136', date: '2024-05-20' },
    result: { status: 'available' },
  },
];

describe('agentguard check', () => {
  it('allows a read and exits 0', async () => {
    const result = cli(
      'check',
      '--pack',
      'packs/tau-airline',
      '--call',
      await file('read.json', { name: 'get_user_details', arguments: { user_id: 'mia_li_3668' } }),
    );
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).decision, 'allow');
  });
  it('denies an unconfirmed cancellation of an ineligible reservation, exits 2 and explains', async () => {
    const call = await file('cancel.json', {
      id: 'c1',
      type: 'function',
      function: { name: 'cancel_reservation', arguments: '{"reservation_id":"4WQ150"}' },
    });
    const conversation = await file('chat.json', [
      { role: 'user', content: 'I am chen_jackson_3290, cancel 4WQ150 please.' },
    ]);
    const result = cli(
      'check',
      ...['--pack', 'packs/tau-airline', '--call', call, '--conversation', conversation],
      ...['--lookups', 'tau-airline'],
    );
    assert.equal(result.status, 2, result.stderr);
    const verdict = JSON.parse(result.stdout);
    assert.deepEqual(
      verdict.violations.map((violation: { policy: string }) => violation.policy),
      ['cancel.user_confirmation', 'cancel.reason_obtained'],
    );
    assert.match(verdict.feedback, /Instead:/);
  });
  it("answers the guards' lookups from a records file: the quick start's cancellation is denied as ineligible", async () => {
    const result = cli(
      'check',
      ...['--pack', 'packs/tau-airline', '--call', await file('zfa.json', zfaCall)],
      ...[
        '--conversation',
        await file('zfa-chat.json', zfaChat),
        '--lookups',
        await file('zfa-records.json', zfaRecords),
      ],
    );
    assert.equal(result.status, 2, result.stderr);
    const verdict = JSON.parse(result.stdout);
    assert.deepEqual(
      verdict.violations.map((violation: { policy: string }) => violation.policy),
      ['cancel.eligibility'],
    );
    assert.match(verdict.violations[0].message, /booked more than 24 hours ago/);
  });
  it("answers the guards' lookups from the agent's backend at a URL", async () => {
    const asked: unknown[] = [];
    const backend = createServer(async (request, response) => {
      const body = JSON.parse(await text(request)) as { tool: string; arguments: Record<string, unknown> };
      asked.push(body);
      const found = zfaRecords.find((record) => record.tool === body.tool);
      response.writeHead(found === undefined ? 404 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(found === undefined ? { error: 'no such tool' } : found.result));
    });
    backend.listen(0, '127.0.0.1');
    await once(backend, 'listening');
    const { port } = backend.address() as AddressInfo;
    try {
      const result = await cliAsync(
        'check',
        ...['--pack', 'packs/tau-airline', '--call', await file('zfa.json', zfaCall)],
        ...['--conversation', await file('zfa-chat.json', zfaChat), '--lookups', `http://127.0.0.1:${port}/lookups`],
      );
      assert.equal(result.status, 2, result.stderr);
      assert.deepEqual(
        JSON.parse(result.stdout).violations.map((violation: { policy: string }) => violation.policy),
        ['cancel.eligibility'],
      );
      assert.deepEqual(asked[0], { tool: 'get_reservation_details', arguments: { reservation_id: 'ZFA04Y' } });
    } finally {
      backend.close();
    }
  });
  it('without --lookups, a guard that needs one fails closed', async () => {
    const result = cli(
      'check',
      ...['--pack', 'packs/tau-airline', '--call', await file('zfa.json', zfaCall)],
      ...['--conversation', await file('zfa-chat.json', zfaChat)],
    );
    assert.equal(result.status, 2, result.stderr);
    assert.equal(JSON.parse(result.stdout).decision, 'deny');
  });
  it('refuses a clock without an offset, showing how to add one', async () => {
    const result = cli(
      'check',
      ...['--pack', 'packs/tau-airline', '--call', await file('zfa.json', zfaCall), '--now', '2024-05-15T15:00:00'],
    );
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /with an offset, got `2024-05-15T15:00:00`: add the offset, e\.g\. `2024-05-15T15:00:00Z`/,
    );
  });
  it('denies an unknown tool by default', async () => {
    const result = cli(
      'check',
      '--pack',
      'packs/tau-airline',
      '--call',
      await file('unknown.json', { name: 'delete_everything', arguments: {} }),
    );
    assert.equal(result.status, 2);
    assert.equal(JSON.parse(result.stdout).violations[0].policy, 'runtime.unknown_tool');
  });
  it('reports a malformed call file with its path and exits 1', async () => {
    const path = await file('bad.json', { name: 'x', arguments: [] });
    const result = cli('check', '--pack', 'packs/tau-airline', '--call', path);
    assert.equal(result.status, 1);
    assert.match(result.stderr, new RegExp(`error: invalid \`${path}\``));
    assert.match(result.stderr, /\$\.arguments/);
  });
});

describe('agentguard replay', () => {
  it('writes one line per tool call and prints the summary', async () => {
    const runs = JSON.parse(await readFile(join(root, 'data/tau-airline/trajectories-gpt-4o.json'), 'utf8')).slice(
      0,
      3,
    );
    const out = join(work, 'out.jsonl');
    const result = cli(
      'replay',
      '--pack',
      'packs/tau-airline',
      '--trajectories',
      await file('runs.json', runs),
      '--out',
      out,
      '--json',
    );
    assert.equal(result.status, 0, result.stderr);
    const summary = JSON.parse(result.stdout);
    assert.equal(summary.trajectories, 3);
    const lines = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(lines.length, summary.calls);
    assert.deepEqual(Object.keys(lines[0]), [
      'trajectory',
      'message_index',
      'call_index',
      'tool',
      'arguments',
      'verdict',
      'violations',
      'lookups',
      'duration_us',
    ]);
    assert.match(result.stderr, /replayed 3\/3 runs/);
  });
  it('replays a pack whose lookups answer from a records file, and names --lookups for a domain without shipped data', async () => {
    const runs = [
      {
        task_id: 0,
        trial: 0,
        reward: 1,
        traj: [
          { role: 'system', content: 'You are an airline agent.' },
          ...zfaChat,
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'c1',
                type: 'function',
                function: { name: 'cancel_reservation', arguments: '{"reservation_id":"ZFA04Y"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'c1', name: 'cancel_reservation', content: 'done' },
        ],
      },
    ];
    const trajectories = await file('zfa-runs.json', runs);
    const out = join(work, 'zfa-out.jsonl');
    const records = await file('zfa-records.json', zfaRecords);
    const result = cli(
      'replay',
      '--pack',
      'packs/tau-airline',
      '--trajectories',
      trajectories,
      '--out',
      out,
      '--json',
      '--lookups',
      records,
    );
    assert.equal(result.status, 0, result.stderr);
    const [line] = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    assert.equal(line.verdict, 'deny');
    assert.deepEqual(
      line.violations.map((violation: { policy: string }) => violation.policy),
      ['cancel.eligibility'],
    );
    assert.equal(JSON.parse(result.stdout).faithfulness.compared, 0);
    const refused = cli('replay', '--pack', 'packs/mcp-filesystem', '--trajectories', trajectories, '--out', out);
    assert.equal(refused.status, 1);
    assert.match(
      refused.stderr,
      /no data for the domain `mcp-filesystem`: give the lookups the guards call with --lookups/,
    );
  });
  it('writes nothing when the trajectory file is malformed', async () => {
    const out = join(work, 'never.jsonl');
    const result = cli(
      'replay',
      '--pack',
      'packs/tau-airline',
      '--trajectories',
      await file('broken.json', '[{"task_id": 1, "traj": ['),
      '--out',
      out,
    );
    assert.equal(result.status, 1);
    assert.match(result.stderr, /broken\.json.*not valid JSON/);
    assert.equal(existsSync(out), false);
  });
});

describe('agentguard eval spec', () => {
  it("prints ToolGuard's metrics as JSON, 1.0 for the gold spec against itself", () => {
    const result = cli(
      'eval',
      'spec',
      '--predicted',
      'data/toolguard-airline-spec',
      '--gold',
      'data/toolguard-airline-spec',
      '--json',
    );
    assert.equal(result.status, 0, result.stderr);
    const scores = JSON.parse(result.stdout);
    assert.deepEqual(scores.reference, { precision: 1, recall: 1, f1: 1 });
    assert.deepEqual(scores.grouping, { fuzzy_rand_index: 1 });
    assert.deepEqual(Object.keys(scores.per_tool).length, 5);
  });
  it('scores the airline pack against the gold spec as a table', () => {
    const result = cli('eval', 'spec', '--predicted', 'packs/tau-airline', '--gold', 'data/toolguard-airline-spec');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^overall\s+\d\.\d{3}/m);
  });
});

describe('agentguard guard-agent check', () => {
  it('lets the compiled program decide, prints the decision and exits 2 on a denial', async () => {
    const request = await file('request.txt', 'Nurses may read only their columns.');
    const spec = await file('spec.txt', 'A SQL agent over eICU.');
    const input = await file('input.json', {
      permissions: { patient: ['uniquepid', 'gender'] },
      schema: { patient: ['uniquepid', 'gender', 'age'] },
    });
    const check = async (name: string, query: string, ...extra: string[]) =>
      cli(
        'guard-agent',
        'check',
        '--request',
        request,
        '--spec',
        spec,
        '--input',
        input,
        '--output',
        await file(name, { query }),
        '--compiled',
        'packs/sql-access-control',
        ...extra,
      );
    const denied = await check('out1.json', 'SELECT age FROM patient');
    assert.equal(denied.status, 2, denied.stderr);
    assert.deepEqual(JSON.parse(denied.stdout).reasons, [{ kind: 'access', table: 'patient', columns: ['age'] }]);
    const granted = await check('out2.json', 'SELECT gender FROM patient');
    assert.equal(granted.status, 0, granted.stderr);
    const seeded = await check(
      'out3.json',
      'SELECT gender FROM patient',
      '--seed',
      await file('seed.json', [{ label: 2 }]),
    );
    assert.equal(seeded.status, 1);
    assert.match(seeded.stderr, /seed\.json.*\$\[0\]\.request/);
  });
  it('says so when the program abstains and no model is given', async () => {
    const text = await file('t.txt', 'x');
    const result = cli(
      'guard-agent',
      'check',
      '--request',
      text,
      '--spec',
      text,
      '--input',
      text,
      '--output',
      text,
      '--compiled',
      'packs/sql-access-control',
    );
    assert.equal(result.status, 1);
    assert.match(result.stderr, /abstained and no model was given/);
  });
});

describe('agentguard guard-agent check --memory', () => {
  it('keeps the code that decided a task and a confirmed demonstration, and decides the next task without a model', async () => {
    const query = {
      request: 'Nurses may read patient.uniquepid and patient.gender only.',
      spec: 'A SQLite agent over eICU: it returns { sql }.',
      input: { role: 'nursing' },
      output: { sql: 'SELECT age FROM patient' },
    };
    const paths = {
      request: await file('memory-request.txt', query.request),
      spec: await file('memory-spec.txt', query.spec),
      input: await file('memory-input.json', query.input),
    };
    const code = `function guard(input, output) {
  const reads = SqliteReads(output.sql, { patient: ['uniquepid', 'gender', 'age'] });
  if (!reads.ok) return { label: 1, reasons: [{ kind: 'undetermined', why: reads.reason }] };
  const access = CheckAccess({ patient: ['uniquepid', 'gender'] }, reads.tables);
  return access.denied ? { label: 1, reasons: [{ kind: 'access', role: input.role, tables: Object.keys(access.inaccessible), columns: access.inaccessible }] } : { label: 0, reasons: [] };
}`;
    const model = new RecordingModel(
      new ScriptedModel([JSON.stringify({ plan: ['Read, compare.'] }), JSON.stringify({ code })]),
      'scripted',
    );
    await new GuardAgent({
      model,
      budget: new Budget({ maxCalls: 5, maxTokens: 1e9 }),
      toolbox: createToolbox(),
      memory: DemonstrationMemory.open(':memory:'),
    }).check(query);
    const recording = join(work, 'memory-recording.json');
    await model.save(recording);
    const memory = join(work, 'memory.db');
    const check = async (name: string, sql: string, ...extra: string[]) =>
      cli(
        'guard-agent',
        'check',
        '--request',
        paths.request,
        '--spec',
        paths.spec,
        '--input',
        paths.input,
        '--output',
        await file(name, { sql }),
        '--memory',
        memory,
        ...extra,
      );
    const first = await check('memory-out1.json', 'SELECT age FROM patient', '--replay', recording, '--confirm', '1');
    assert.equal(first.status, 2, first.stderr);
    assert.equal(JSON.parse(first.stdout).decidedBy, 'agent');
    assert.match(first.stderr, /stored in the memory as a confirmed demonstration/);
    const second = await check('memory-out2.json', 'SELECT gender FROM patient WHERE uniquepid = 1');
    assert.equal(second.status, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout).decidedBy, 'program');
  });
  it('gives up on a model call after --timeout seconds, naming the answer file it waited for', async () => {
    const exchange = join(work, 'exchange-timeout');
    const text = await file('timeout.txt', 'Users under 18 may not buy products.');
    const args = ['guard-agent', 'check', '--request', text, '--spec', text, '--input', text, '--output', text];
    const started = Date.now();
    const result = cli(...args, '--model', `exchange:${exchange}`, '--timeout', '1');
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /no answer in `.*0001-guard\.plan@v3\.answer\.md` before the time limit/);
    assert.ok(Date.now() - started < 60_000);
    assert.ok(existsSync(join(exchange, '0001-guard.plan@v3.request.md')));
    const refused = cli(...args, '--timeout', 'soon');
    assert.match(refused.stderr, /--timeout takes a number of seconds above 0, not `soon`/);
  });
});

describe('agentguard start', () => {
  it('replays the bundled runs and prints the report', () => {
    const result = cli('start');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /trajectories replayed\s+200/);
    assert.match(result.stdout, /write calls not allowed, by policy:/);
    assert.match(result.stdout, /0 differ otherwise/);
  });
});
