import { canonicalJson } from '../audit/canonical-json.ts';
import type { TauDomain } from './domain.ts';
import { type Action, respondAction, type Task } from './task.ts';

/** How a run's reward was reached, as tau-bench's `RewardResult` records it. */
export interface RewardResult {
  reward: number;
  /** The data check (`r_actions`), or, for a task with required outputs, the outputs check that replaces it. */
  info: { r_actions: boolean; gt_data_hash: string } | { r_outputs: number; outputs: Record<string, boolean> };
  /** The task's gold actions, replies left out. */
  actions: Action[];
}

const goldHashes = new WeakMap<TauDomain, Map<string, string>>();

/** The data hash after a task's gold actions on fresh data (replies and ending tools skipped), once per task. */
export function goldDataHash(domain: TauDomain, task: Task): string {
  let cache = goldHashes.get(domain);
  if (cache === undefined) {
    cache = new Map();
    goldHashes.set(domain, cache);
  }
  const key = canonicalJson(task.actions);
  let hash = cache.get(key);
  if (hash === undefined) {
    const environment = domain.fresh();
    for (const action of task.actions) {
      // A gold reply would go to the user, which changes no data.
      if (action.name === respondAction || domain.terminateTools.has(action.name)) continue;
      environment.run(action.name, action.kwargs);
    }
    hash = environment.dataHash();
    cache.set(key, hash);
  }
  return hash;
}

/**
 * tau-bench's `calculate_reward`: 1 when the data after the run equals the data after the task's gold actions and
 * every required output appears in one of the agent's replies (case-insensitively, commas removed from the reply);
 * else 0.
 *
 * @example
 * ```ts
 * const result = calculateReward(domain, task, environment.dataHash(), replies);
 * ```
 */
export function calculateReward(
  domain: TauDomain,
  task: Task,
  runDataHash: string,
  replies: readonly string[],
): RewardResult {
  const gtDataHash = goldDataHash(domain, task);
  const actions = task.actions.filter((action) => action.name !== respondAction);
  let reward = runDataHash === gtDataHash ? 1 : 0;
  let info: RewardResult['info'] = { r_actions: runDataHash === gtDataHash, gt_data_hash: gtDataHash };
  if (task.outputs.length > 0) {
    const outputs: Record<string, boolean> = {};
    let rOutputs = 1;
    for (const output of task.outputs) {
      const found = replies.some((reply) => reply.toLowerCase().replaceAll(',', '').includes(output.toLowerCase()));
      outputs[output] = found;
      if (!found) {
        rOutputs = 0;
        reward = 0;
      }
    }
    info = { r_outputs: rOutputs, outputs };
  }
  return { reward, info, actions };
}

/** Whether a reward counts as a success, as tau-bench's `is_successful` says. */
export const isSuccess = (reward: number) => Math.abs(reward - 1) <= 1e-6;

function choose(n: number, k: number): number {
  if (k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * pass^k for k = 1 … trials, as tau-bench's `display_metrics` computes it: per task, C(successes, k) / C(trials, k),
 * averaged over tasks.
 *
 * @example
 * ```ts
 * passHatK([{ task_id: 0, reward: 1 }, { task_id: 0, reward: 0 }], 2); // { 1: 0.5, 2: 0 }
 * ```
 */
export function passHatK(
  results: readonly { task_id: number; reward: number }[],
  trials: number,
): Record<number, number> {
  const successes = new Map<number, number>();
  for (const result of results)
    successes.set(result.task_id, (successes.get(result.task_id) ?? 0) + (isSuccess(result.reward) ? 1 : 0));
  const passes: Record<number, number> = {};
  for (let k = 1; k <= trials; k++) {
    let sum = 0;
    for (const count of successes.values()) sum += choose(count, k) / choose(trials, k);
    passes[k] = successes.size === 0 ? 0 : sum / successes.size;
  }
  return passes;
}
