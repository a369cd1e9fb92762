import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { ScriptedModel } from '../llm/scripted-model.ts';
import { loadPack } from '../pack/load-pack.ts';
import { GuardRuntime } from '../runtime/guard-runtime.ts';
import { loadDomain, type TauDomain } from './domain.ts';
import { runEpisode } from './episode.ts';
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

  const cancelBreakingPolicy: Action[] = [
    { name: 'get_reservation_details', kwargs: { reservation_id: '5XOFTB' } },
    { name: 'cancel_reservation', kwargs: { reservation_id: '5XOFTB' } },
  ];
  const untouched = { user_id: 'noah_lopez_2532', instruction: 'Cancel 5XOFTB.', actions: [], outputs: [] };

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
    assert.match(String(result.traj.at(-3)?.content), /"status": "cancelled"/);
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
  });
});
