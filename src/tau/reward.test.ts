import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadDomain } from './domain.ts';
import { calculateReward, passHatK, type RewardResult } from './reward.ts';
import type { Task } from './task.ts';
import { stopToken } from './user-simulator.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

interface RecordedRun {
  task_id: number;
  trial: number;
  reward: number;
  info: {
    task: Task;
    reward_info?: {
      info: { r_actions: number; gt_data_hash: string } | { r_outputs: number; outputs: Record<string, boolean> };
    } | null;
  };
  traj: {
    role: string;
    content: string | null;
    tool_calls?: { function: { name: string; arguments: string } }[] | null;
  }[];
}

describe('the reward of the 200 recorded GPT-4o airline runs', async () => {
  const airline = await loadDomain('airline');
  const runs = JSON.parse(await readFile(root('data/tau-airline/trajectories-gpt-4o.json'), 'utf8')) as RecordedRun[];

  /** Applies a run's recorded actions to fresh data, as tau-bench stepped them, and computes its reward. */
  function replayedReward(run: RecordedRun): { reward: number; done: boolean; info?: RewardResult['info'] } {
    const environment = airline.fresh();
    const replies: string[] = [];
    let done = false;
    for (const [index, message] of run.traj.entries()) {
      const call = message.tool_calls?.[0];
      if (message.role === 'assistant' && call !== undefined) {
        environment.run(call.function.name, JSON.parse(call.function.arguments) as Record<string, unknown>);
        if (airline.terminateTools.has(call.function.name)) done = true;
      } else if (message.role === 'assistant') {
        replies.push(message.content ?? '');
      } else if (message.role === 'user' && index > 1 && (message.content ?? '').includes(stopToken)) {
        done = true;
      }
    }
    // tau-bench computes a reward only when the episode ends; a run cut off at its step limit scores 0.
    if (!done) return { reward: 0, done };
    const { reward, info } = calculateReward(airline, run.info.task, environment.dataHash(), replies);
    return { reward, done, info };
  }

  it('gives every run its recorded reward, computed against the task the run recorded', () => {
    const started = performance.now();
    const differing: string[] = [];
    for (const run of runs) {
      const { reward, done, info } = replayedReward(run);
      assert.equal(
        done,
        run.info.reward_info !== undefined && run.info.reward_info !== null,
        `${run.task_id}-${run.trial}`,
      );
      if (reward !== run.reward) differing.push(`${run.task_id}-${run.trial}: ${run.reward} recorded, ${reward} now`);
      // The check that decided it agrees too: the data check, or for a task with outputs, each output's.
      const recorded = run.info.reward_info?.info;
      if (recorded !== undefined && info !== undefined) {
        const mine = 'r_actions' in info ? { r_actions: Number(info.r_actions) } : info;
        const theirs = 'r_actions' in recorded ? { r_actions: Number(recorded.r_actions) } : recorded;
        assert.deepEqual(mine, theirs, `${run.task_id}-${run.trial}`);
      }
    }
    assert.equal(runs.length, 200);
    assert.deepEqual(differing, []);
    assert.ok(performance.now() - started < 20_000);
  });
});

describe('passHatK', () => {
  it('averages C(successes, k) / C(trials, k) over tasks', () => {
    const results = [
      { task_id: 0, reward: 1 },
      { task_id: 0, reward: 1 },
      { task_id: 1, reward: 1 },
      { task_id: 1, reward: 0 },
    ];
    assert.deepEqual(passHatK(results, 2), { 1: 0.75, 2: 0.5 });
  });
});
