import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import type { ModelRequest } from '../llm/language-model.ts';
import { ScriptedModel } from '../llm/scripted-model.ts';
import { loadPack } from '../pack/load-pack.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { TextToolCallingModel } from './agent-model.ts';
import { loadDomain, type TauDomain } from './domain.ts';
import { type AskMode, runEpisode, type TrajectoryMessage } from './episode.ts';
import { formatReport, summarizeArm } from './report.ts';
import { runTrials } from './run-trials.ts';
import type { Action } from './task.ts';
import { stopToken } from './user-simulator.ts';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** An agent model that makes these calls, one a step, then says `reply`. */
function scriptedAgent(actions: readonly Action[], reply = 'Done.'): MockLanguageModelV4 {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async (): Promise<LanguageModelV4GenerateResult> => {
      const action = actions[step++];
      if (action === undefined)
        return {
          content: [{ type: 'text', text: reply }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `call_${step}`,
            toolName: action.name,
            input: JSON.stringify(action.kwargs),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

/** A user who opens, then answers each agent message with the next line, the last being the stop token. */
const scriptedUser = (...lines: string[]) => new ScriptedModel(['Hi, I need help.', ...lines, stopToken]);

const airline = await loadDomain('airline');
const retail = await loadDomain('retail');
const pack = await loadPack(fileURLToPath(new URL('../../packs/tau-airline/', import.meta.url)));
const writeTools = new Set(
  [...pack.tools.values()].filter((tool) => !tool.spec.readOnly).map((tool) => tool.spec.name),
);

async function goldRun(domain: TauDomain, taskId: number) {
  const task = domain.tasks[taskId];
  assert.ok(task);
  return runEpisode({
    domain,
    taskId,
    trial: 0,
    agent: { name: 'scripted', model: scriptedAgent(task.actions, `Here you are: ${task.outputs.join(', ')}`) },
    user: scriptedUser(),
  });
}

/** A cancellation the airline's policy forbids, after its lookup. */
const cancelBreakingPolicy: Action[] = [
  { name: 'get_reservation_details', kwargs: { reservation_id: '5XOFTB' } },
  { name: 'cancel_reservation', kwargs: { reservation_id: '5XOFTB' } },
];
/** A task whose gold actions change nothing. */
const untouched = { user_id: 'noah_lopez_2532', instruction: 'Cancel 5XOFTB.', actions: [], outputs: [] };

describe('a tau-bench episode', () => {
  it('rewards an agent that replays the gold actions of each task with 1', async () => {
    for (const [domain, taskIds] of [
      [airline, [0, 10, 19, 26, 35, 49]],
      [retail, [0, 12, 50, 64, 106, 114]],
    ] as const) {
      for (const taskId of taskIds) {
        const result = await goldRun(domain, taskId);
        assert.equal(result.info.error, undefined);
        assert.equal(result.reward, 1, `${domain.name} task ${taskId}`);
      }
    }
  });

  it('records the run as tau-bench trajectory JSON: system, user, one tool call a step, its result', async () => {
    const result = await goldRun(retail, 0);
    const steps = retail.tasks[0]?.actions.length ?? 0;
    assert.deepEqual(
      result.traj.map((message) => message.role),
      ['system', 'user', ...Array.from({ length: steps }).flatMap(() => ['assistant', 'tool']), 'assistant', 'user'],
    );
    assert.equal(result.traj[0]?.content, retail.policy);
    assert.equal(result.info.usage['agent scripted']?.calls, steps + 1);
    assert.equal(result.info.usage['agent scripted']?.inputTokens, 10 * (steps + 1));
  });

  it('rewards 0 when the data differ from the gold, or a required output is missing', async () => {
    const noOp = await runEpisode({
      domain: retail,
      taskId: 0,
      trial: 0,
      agent: { name: 'scripted', model: scriptedAgent([]) },
      user: scriptedUser(),
    });
    assert.equal(noOp.reward, 0);
    const withOutputs = retail.tasks.findIndex((task) => task.outputs.length > 0);
    const outputTask = retail.tasks[withOutputs];
    assert.ok(outputTask);
    const silent = await runEpisode({
      domain: retail,
      taskId: withOutputs,
      trial: 0,
      agent: { name: 'scripted', model: scriptedAgent(outputTask.actions, 'Done.') },
      user: scriptedUser(),
    });
    assert.equal(silent.reward, 0);
    assert.deepEqual(silent.info.reward_info?.info, {
      r_outputs: 0,
      outputs: Object.fromEntries(outputTask.outputs.map((output) => [output, false])),
    });
  });

  it('blocks a policy-breaking call when guarded: the tool never runs and the agent sees the feedback', async () => {
    const agent = scriptedAgent(cancelBreakingPolicy);
    const result = await runEpisode({
      domain: airline,
      taskId: 0,
      trial: 0,
      task: untouched,
      agent: { name: 'scripted', model: agent },
      user: scriptedUser(),
      guard: { runtime: new GuardRuntime([pack]), writeTools },
    });
    // The task's gold changes nothing: reward 1 proves the cancellation never ran.
    assert.equal(result.reward, 1);
    const [verdict] = result.info.verdicts;
    assert.equal(verdict?.tool, 'cancel_reservation');
    assert.equal(verdict?.decision, 'deny');
    assert.equal(verdict?.ran, false);
    assert.ok(verdict?.violations.some((violation) => violation.policy === 'cancel.eligibility'));
    assert.ok((verdict?.duration_us ?? 0) > 0, 'the guard time of the call');
    assert.ok((result.info.duration_ms ?? -1) >= 0, 'the wall time of the run');
    const seen = JSON.stringify(agent.doGenerateCalls[2]?.prompt);
    assert.match(seen, /was blocked/);
    assert.match(seen, /cancel\.eligibility/);
  });

  it('runs the same call in shadow and records the verdict it would have had', async () => {
    const result = await runEpisode({
      domain: airline,
      taskId: 0,
      trial: 0,
      task: untouched,
      agent: { name: 'scripted', model: scriptedAgent(cancelBreakingPolicy) },
      user: scriptedUser(),
      guard: { runtime: new GuardRuntime([pack], { shadow: true }), writeTools },
    });
    assert.equal(result.reward, 0);
    assert.equal(result.info.verdicts[0]?.decision, 'deny');
    assert.equal(result.info.verdicts[0]?.ran, true);
    assert.ok((result.info.verdicts[0]?.duration_us ?? 0) > 0, 'the shadow decision is timed too');
    assert.match(String(result.traj.at(-3)?.content), /"status": "cancelled"/);
  });

  it('answers a tool the agent is not offered, and arguments that are not JSON, without running anything', async () => {
    const agent = new MockLanguageModelV4({
      doGenerate: [
        ['get_flight_on_date_details', '{"flight_number": "HAT001", "date": "2024-05-01"}'],
        ['cancel_reservation', 'reservation 5XOFTB'],
      ]
        .map(
          ([name, input]): LanguageModelV4GenerateResult => ({
            content: [
              { type: 'tool-call', toolCallId: `call_${name}`, toolName: name as string, input: input as string },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          }),
        )
        .concat([
          {
            content: [{ type: 'text', text: 'Done.' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
            warnings: [],
          },
        ]),
    });
    const result = await runEpisode({
      domain: airline,
      taskId: 0,
      trial: 0,
      task: untouched,
      agent: { name: 'scripted', model: agent },
      user: scriptedUser(),
      guard: { runtime: new GuardRuntime([pack]), writeTools },
    });
    assert.deepEqual(
      result.traj.filter((message) => message.role === 'tool').map((message) => message.content),
      [
        'Unknown action get_flight_on_date_details',
        'Error: the arguments of `cancel_reservation` are not a JSON object',
      ],
    );
    assert.equal(result.reward, 1);
  });

  it('goes on after a blocked transfer to a human: only a transfer that ran ends the episode', async () => {
    const result = await runEpisode({
      domain: airline,
      taskId: 0,
      trial: 0,
      task: untouched,
      // Without its `summary`, the pack denies the call for its arguments.
      agent: {
        name: 'scripted',
        model: scriptedAgent([{ name: 'transfer_to_human_agents', kwargs: {} }], 'Anything else?'),
      },
      user: scriptedUser(),
      guard: { runtime: new GuardRuntime([pack]), writeTools },
    });
    assert.deepEqual(
      result.traj.slice(2).map((message) => message.role),
      ['assistant', 'tool', 'assistant', 'user'],
    );
    assert.doesNotMatch(String(result.traj[3]?.content), /Transfer successful/);
    assert.equal(result.traj.at(-1)?.content, stopToken);
  });

  it('ends the run with reward 0 and the error when a model fails', async () => {
    const result = await runEpisode({
      domain: retail,
      taskId: 0,
      trial: 0,
      agent: { name: 'scripted', model: scriptedAgent([]) },
      user: new ScriptedModel(['Hi.']),
    });
    assert.equal(result.reward, 0);
    assert.match(result.info.error ?? '', /no answer left/);
  });
});

describe('an ask verdict', async () => {
  // Recorded run 4-0 up to its upgrade of FQ8APE, which the pack asks about: the amount was never stated.
  const recorded =
    (
      JSON.parse(
        await readFile(
          fileURLToPath(new URL('../../data/tau-airline/trajectories-gpt-4o.json', import.meta.url)),
          'utf8',
        ),
      ) as { task_id: number; trial: number; traj: TrajectoryMessage[] }[]
    )
      .find((run) => run.task_id === 4 && run.trial === 0)
      ?.traj.slice(0, 17) ?? [];
  const agentTurns = recorded.filter((message) => message.role === 'assistant');
  const userTurns = recorded.flatMap((message) => (message.role === 'user' ? [message.content] : []));

  /** The recorded agent, then a last reply. */
  function recordedAgent(): MockLanguageModelV4 {
    let step = 0;
    return new MockLanguageModelV4({
      doGenerate: async (): Promise<LanguageModelV4GenerateResult> => {
        const turn = agentTurns[step++];
        const call = turn?.role === 'assistant' ? turn.tool_calls?.[0] : undefined;
        if (turn?.role === 'assistant' && call === undefined)
          return {
            content: [{ type: 'text', text: turn.content ?? '' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
            warnings: [],
          };
        if (call === undefined)
          return {
            content: [{ type: 'text', text: 'Done.' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
            warnings: [],
          };
        return {
          content: [
            { type: 'tool-call', toolCallId: call.id, toolName: call.function.name, input: call.function.arguments },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      },
    });
  }

  /** The recorded user, answering the approval question with `answer`, and stopping at the end. */
  function recordedUser(answer: string): ScriptedModel {
    const lines = [...userTurns];
    const reply = (request: ModelRequest) =>
      /explicit approval to run update_reservation_flights/.test(request.messages.at(-1)?.content ?? '')
        ? answer
        : (lines.shift() ?? stopToken);
    return new ScriptedModel(Array.from({ length: 10 }, () => reply));
  }

  const episode = (ask: AskMode, answer: string) =>
    runEpisode({
      domain: airline,
      taskId: 4,
      trial: 0,
      agent: { name: 'recorded', model: recordedAgent() },
      user: recordedUser(answer),
      guard: { runtime: new GuardRuntime([pack]), writeTools },
      ask,
    });

  it('goes to the simulated user, and runs the call on an explicit yes', async () => {
    const result = await episode('user', 'Yes, I approve.');
    assert.equal(result.info.error, undefined);
    assert.equal(result.info.asks.length, 1);
    assert.match(result.info.asks[0]?.question ?? '', /amount/);
    assert.equal(result.info.asks[0]?.approved, true);
    assert.match(formatReport([summarizeArm('guarded', [result], 1)], true), /asks put to the user\s+1\n/);
    assert.deepEqual(
      result.info.verdicts.map((verdict) => [verdict.tool, verdict.decision, verdict.ran]),
      [['update_reservation_flights', 'ask', true]],
    );
    assert.match(String(result.traj[17]?.content), /^\{"reservation_id": "FQ8APE"/);
  });

  it('keeps the call from running when the user declines, or when asks are denied', async () => {
    for (const [ask, answer] of [
      ['user', 'No, do not do that.'],
      ['deny', 'unused'],
    ] as const) {
      const result = await episode(ask, answer);
      assert.equal(result.info.asks.length, ask === 'user' ? 1 : 0);
      assert.equal(result.info.verdicts[0]?.ran, false, ask);
      assert.doesNotMatch(String(result.traj[17]?.content), /^\{"reservation_id"/);
    }
  });
});

describe('an agent answering in text (the exchange folder)', () => {
  it('calls a tool by answering its JSON, and replies in words otherwise', async () => {
    const agent = new ScriptedModel([
      '{"name": "find_user_id_by_email", "arguments": {"email": "noah.brown7922@example.com"}}',
      'You are noah_brown_6181.',
    ]);
    const result = await runEpisode({
      domain: retail,
      taskId: 0,
      trial: 0,
      agent: {
        name: 'exchange',
        // As the exchange folder does: no token counts, estimates from the text.
        model: new TextToolCallingModel({
          id: agent.id,
          complete: async (request) => ({
            ...(await agent.complete(request)),
            usage: { inputTokens: 100, outputTokens: 10, estimated: true },
          }),
        }),
      },
      user: scriptedUser(),
    });
    assert.deepEqual(result.info.usage['agent exchange'], {
      calls: 2,
      inputTokens: 200,
      outputTokens: 20,
      estimated: true,
    });
    assert.equal(result.traj[3]?.role === 'tool' && result.traj[3].content, 'noah_brown_6181');
    assert.equal(result.traj[4]?.content, 'You are noah_brown_6181.');
    assert.match(agent.requests[1]?.system ?? '', /- find_user_id_by_email: Find user id by email/);
    assert.match(
      agent.requests[1]?.messages[0]?.content ?? '',
      /### tool result \(find_user_id_by_email\)\n\nnoah_brown_6181/,
    );
  });
});

describe('runTrials', () => {
  it('writes each arm to its file, resumes without running a finished episode again, and reports both arms', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-tau-'));
    const task = airline.tasks[0];
    assert.ok(task);
    const options = {
      domain: airline,
      agent: { name: 'scripted', model: scriptedAgent([]) },
      arms: [
        { name: 'guarded' as const, guard: { runtime: new GuardRuntime([pack]), writeTools } },
        { name: 'unguarded' as const, guard: { runtime: new GuardRuntime([pack], { shadow: true }), writeTools } },
      ],
      tasks: [0],
      trials: 1,
      out,
    };
    const first = await runTrials({ ...options, user: new ScriptedModel(['Hi.', stopToken, 'Hi.', stopToken]) });
    assert.equal(first.get('guarded')?.length, 1);
    const written = JSON.parse(await readFile(join(out, 'unguarded.json'), 'utf8')) as { task_id: number }[];
    assert.deepEqual(
      written.map((run) => run.task_id),
      [0],
    );
    // A user with no answers left: any episode run again would end in an error.
    const resumed = await runTrials({ ...options, user: new ScriptedModel([]), trials: 2 });
    assert.equal(resumed.get('guarded')?.[0]?.info.error, undefined);
    assert.match(resumed.get('guarded')?.[1]?.info.error ?? '', /no answer left/);
    const report = formatReport(
      [...resumed].map(([arm, runs]) => summarizeArm(arm, runs, 2)),
      true,
    );
    assert.match(report, /pass\^2/);
    assert.match(report, /runs ended by an error\s+1\s+1/);
    assert.match(report, /guarded\s+agent scripted: 1 calls, 10 input and 5 output tokens/);
    assert.match(report, /guard time: write calls timed\s+0\s+0/);
    assert.match(report, /median per call \(ms\)\s+-\s+-\n/);
  });

  it('reports the guard time per arm: calls timed, median, p95, total, and its share of the wall time', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-tau-'));
    const runs = await runTrials({
      domain: airline,
      agent: { name: 'scripted', model: scriptedAgent(cancelBreakingPolicy) },
      user: scriptedUser(),
      arms: [{ name: 'unguarded', guard: { runtime: new GuardRuntime([pack], { shadow: true }), writeTools } }],
      tasks: [0],
      trials: 1,
      out,
    });
    const summary = summarizeArm('unguarded', runs.get('unguarded') ?? [], 1);
    const { calls, medianUs, p95Us, totalUs, shareOfWallTime } = summary.guardTime;
    assert.equal(calls, 1);
    assert.ok(medianUs > 0 && medianUs === p95Us && p95Us === totalUs);
    assert.ok(shareOfWallTime !== undefined && shareOfWallTime > 0 && shareOfWallTime <= 1);
    const report = formatReport([summary], true);
    assert.match(report, new RegExp(`median per call \\(ms\\)\\s+${(medianUs / 1000).toFixed(3)}\\n`));
    assert.match(report, /share of the runs' wall time\s+\d+\.\d\d%/);
    assert.match(report, /of those, ran anyway\s+1\n {2}per run\s+1\n/);
    assert.match(report, /asks put to the user\s+0\n/);
    assert.match(report, /verdicts decided by:\n {2}unguarded {2}no pack recorded/);
  });
});

describe('stored runs and another pack', async () => {
  /** The airline pack with the policies of `cancel_reservation` archived. */
  async function lenientPack(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'agentguard-tau-pack-'));
    await cp(fileURLToPath(new URL('../../packs/tau-airline/', import.meta.url)), dir, { recursive: true });
    const manifestFile = join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    manifest.guards.cancel_reservation.policies = manifest.guards.cancel_reservation.policies.map(
      ({ id }: { id: string }) => ({ id, state: 'archived', reason: 'lenient' }),
    );
    await writeFile(manifestFile, JSON.stringify(manifest));
    return dir;
  }
  const lenient = await loadPack(await lenientPack());
  const shipped = { loaded: pack, used: { path: 'packs/tau-airline', sha256: 'a'.repeat(64) } };
  const other = { loaded: lenient, used: { path: 'lenient-pack', sha256: 'b'.repeat(64) } };
  const arm = (name: 'guarded' | 'unguarded', with_: typeof shipped) => ({
    name,
    guard: {
      runtime: new GuardRuntime([with_.loaded], { shadow: name === 'unguarded' }),
      writeTools,
      pack: with_,
    },
  });
  /** Task 0 of the airline (which cancels nothing) with the policy-breaking cancellation made in it. */
  const trials = (out: string, name: 'guarded' | 'unguarded', with_: typeof shipped) => ({
    domain: airline,
    agent: { name: 'scripted', model: scriptedAgent(cancelBreakingPolicy) },
    user: scriptedUser(),
    arms: [arm(name, with_)],
    tasks: [0],
    trials: 1,
    out,
  });

  it('decides unguarded runs again with the pack given now, from the runs, and reports which pack decided', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-tau-'));
    const first = (await runTrials(trials(out, 'unguarded', shipped))).get('unguarded')?.[0];
    assert.deepEqual(first?.info.pack, shipped.used);
    const [made] = first?.info.verdicts ?? [];
    assert.deepEqual([made?.tool, made?.decision, made?.ran], ['cancel_reservation', 'deny', true]);
    // Resumed with another pack: nothing runs (a user with no answers would end any episode in an error).
    const resumed = await runTrials({ ...trials(out, 'unguarded', other), user: new ScriptedModel([]) });
    const run = resumed.get('unguarded')?.[0];
    assert.equal(run?.info.error, undefined);
    assert.deepEqual(run?.info.pack, { ...other.used, redecided: true });
    assert.deepEqual(
      run?.info.verdicts.map((verdict) => [verdict.message_index, verdict.tool, verdict.decision, verdict.ran]),
      [[made?.message_index, 'cancel_reservation', 'allow', true]],
    );
    assert.ok((run?.info.verdicts[0]?.duration_us ?? 0) > 0);
    const stored = JSON.parse(await readFile(join(out, 'unguarded.json'), 'utf8'));
    assert.deepEqual(stored[0].info.pack, { ...other.used, redecided: true });
    // Back to the first pack: its verdicts, decided again from the run, are the ones the run recorded.
    const again = (await runTrials({ ...trials(out, 'unguarded', shipped), user: new ScriptedModel([]) })).get(
      'unguarded',
    )?.[0];
    assert.deepEqual(
      again?.info.verdicts.map(({ duration_us: _, ...verdict }) => verdict),
      first?.info.verdicts.map(({ duration_us: _, ...verdict }) => verdict),
    );
    const summary = summarizeArm('unguarded', resumed.get('unguarded') ?? [], 1);
    assert.equal(summary.guardTime.calls, 1);
    assert.ok(summary.guardTime.totalUs > 0);
    assert.equal(summary.guardTime.shareOfWallTime, undefined, 'no wall time of the run the verdicts came from');
    const report = formatReport([summary], true);
    assert.match(report, /verdicts decided by:\n {2}unguarded {2}lenient-pack \(sha256 bbbbbbbbbbbb\), decided again/);
    assert.match(report, /write calls not allowed, by policy:\n {2}none/);
  });

  it('stops rather than decide again on data the run did not have, and skips calls no guard decided', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-tau-'));
    await runTrials(trials(out, 'unguarded', shipped));
    const file = join(out, 'unguarded.json');
    const [stored] = JSON.parse(await readFile(file, 'utf8'));
    const lookup = stored.traj.findIndex((message: TrajectoryMessage) => message.role === 'tool');
    stored.traj[lookup].content = '{"reservation_id": "5XOFTB", "status": "tampered"}';
    await writeFile(file, JSON.stringify([stored]));
    await assert.rejects(
      runTrials({ ...trials(out, 'unguarded', other), user: new ScriptedModel([]) }),
      new RegExp(`run 0-0: message ${lookup - 1}: \`get_reservation_details\` does not give its recorded result again`),
    );
    // A cancellation whose arguments are not an object: no verdict in the run, none decided again.
    const unparsed = await mkdtemp(join(tmpdir(), 'agentguard-tau-'));
    const agent = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'cancel_reservation', input: 'cancel 5XOFTB' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        },
        {
          content: [{ type: 'text', text: 'Done.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        },
      ] satisfies LanguageModelV4GenerateResult[],
    });
    const made = await runTrials({
      ...trials(unparsed, 'unguarded', shipped),
      agent: { name: 'scripted', model: agent },
    });
    assert.deepEqual(made.get('unguarded')?.[0]?.info.verdicts, []);
    const again = await runTrials({ ...trials(unparsed, 'unguarded', other), user: new ScriptedModel([]) });
    assert.equal(again.get('unguarded')?.[0]?.info.pack?.redecided, true);
    assert.deepEqual(again.get('unguarded')?.[0]?.info.verdicts, []);
  });

  it('refuses to resume guarded runs with another pack, naming both', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentguard-tau-'));
    await runTrials(trials(out, 'guarded', shipped));
    await assert.rejects(
      runTrials({ ...trials(out, 'guarded', other), user: new ScriptedModel([]) }),
      /the guarded runs in `.*guarded\.json` were made with pack `packs\/tau-airline` \(sha256 aaaaaaaaaaaa\), not `lenient-pack` \(sha256 bbbbbbbbbbbb\)/,
    );
  });
});
