import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { InputError } from '../errors.ts';
import { loadPack } from '../pack/load-pack.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { environmentFor } from './environment.ts';
import { compareResults } from './faithfulness.ts';
import { replay } from './replay.ts';
import { summarize } from './report.ts';
import { readTrajectories } from './trajectories.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

describe('replay of the 200 recorded GPT-4o airline runs', async () => {
  const pack = await loadPack(root('packs/tau-airline'));
  const fresh = await environmentFor('tau-airline');
  assert.ok(fresh);
  const runs = await readTrajectories(root('data/tau-airline/trajectories-gpt-4o.json'));
  const result = await replay(new GuardRuntime([pack]), runs, fresh);

  it('checks every tool call once, reads included, with well-formed lines', () => {
    assert.equal(
      result.lines.length,
      runs.reduce((sum, run) => sum + run.conversation.toolCalls().length, 0),
    );
    for (const line of result.lines) {
      assert.deepEqual(Object.keys(line), [
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
      assert.ok(['allow', 'deny', 'ask'].includes(line.verdict));
      assert.equal(line.verdict === 'allow', line.violations.length === 0);
    }
  });
  it('records the lookups the guards made for a call, with the records they returned then', () => {
    const cancels = result.lines.filter((line) => line.tool === 'cancel_reservation');
    assert.ok(cancels.length > 0);
    for (const line of cancels) {
      const lookup = line.lookups.find((found) => found.tool === 'get_reservation_details');
      assert.deepEqual(lookup?.arguments, { reservation_id: line.arguments.reservation_id });
      const record = lookup?.result as { reservation_id?: string; status?: string } | undefined;
      if (lookup?.error === undefined) assert.equal(record?.reservation_id, line.arguments.reservation_id);
      assert.notEqual(record?.status, 'cancelled', 'the record as it was before the call was applied');
    }
  });
  it('reproduces every recorded tool result except the known address rename', () => {
    assert.equal(result.compared, result.lines.length);
    assert.deepEqual(
      result.mismatches.filter((mismatch) => mismatch.kind === 'different'),
      [],
    );
    assert.ok(result.mismatches.every((mismatch) => mismatch.tool === 'get_user_details'));
  });
  it('allows every read and denies write calls that break the policy', () => {
    const summary = summarize(
      result,
      new Set(['book_reservation', 'cancel_reservation', 'update_reservation_flights']),
    );
    for (const line of result.lines)
      if (line.tool.startsWith('get_') || line.tool.startsWith('search_')) assert.equal(line.verdict, 'allow');
    assert.ok((summary.denialsByPolicy['cancel.eligibility'] ?? 0) > 0);
    // v1 task 19 changes a round trip's destination (LGA to JFK): every such change is denied.
    for (const line of result.lines.filter(
      (candidate) => candidate.trajectory.startsWith('19-') && candidate.tool === 'update_reservation_flights',
    )) {
      assert.ok(
        line.violations.some((violation) => violation.policy === 'flights.same_route_and_trip_type'),
        line.trajectory,
      );
    }
  });
});

describe('compareResults', () => {
  it('ignores key order and number formatting, and recognises the address rename', () => {
    assert.equal(compareResults('{"b": 1.0, "a": [1]}', '{"a":[1],"b":1}'), 'same');
    assert.equal(compareResults('{"address": {"province": "TX"}}', '{"address": {"state": "TX"}}'), 'address_rename');
    assert.equal(compareResults('Error: x', 'Error: y'), 'different');
  });
});

describe('readTrajectories', () => {
  it('names the file and the JSON path of a malformed run', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'agentguard-')), 'runs.json');
    await writeFile(
      file,
      JSON.stringify([
        { task_id: 1, trial: 0, traj: [{ role: 'user', content: 'hi' }] },
        { task_id: 2, traj: [{ role: 'assistant', tool_calls: [{ id: 'c' }] }] },
      ]),
    );
    await assert.rejects(
      readTrajectories(file),
      (error: unknown) =>
        error instanceof InputError &&
        error.message.includes(file) &&
        error.issues.some((issue) => issue.location === '$[1].traj[0].tool_calls[0].function'),
    );
  });
});
