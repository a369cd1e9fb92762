/**
 * Where a write call's guard time goes, over the 200 recorded GPT-4o airline runs: each policy's own time, and the
 * whole decision as the benchmark takes it (after the previous call's tool ran) beside the same decision made again at
 * once (the data and code it reads still in the processor's caches). Run: `node bench/policy-latency.ts`
 * (BENCH_PASSES sets the measured passes, default 5; BENCH_WARMUP the passes before them, default 40).
 */
import { fileURLToPath } from 'node:url';
import type { GuardContext } from '../src/model/guard-context.ts';
import { loadPack } from '../src/pack/load-pack.ts';
import { environmentFor } from '../src/replay/environment.ts';
import { quantile } from '../src/replay/report.ts';
import { readTrajectories } from '../src/replay/trajectories.ts';
import { GuardRuntime } from '../src/runtime/guard-runtime.ts';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/**
 * A policy's own time, µs: its check run in the runtime's order on one context, right after the two decisions (so with
 * the call's data and code in the caches); a lookup or reading that several policies share is charged to the first
 * that asks for it.
 */
export interface PolicyRow {
  policy: string;
  calls: number;
  p50: number;
  p99: number;
}

/** What the breakdown measured, µs. */
export interface PolicyLatency {
  passes: number;
  warmup: number;
  policies: PolicyRow[];
  /** Write calls' whole decision: first after the previous call's tool ran, then the same decision made again. */
  decision: { calls: number; first: { p50: number; p99: number }; again: { p50: number; p99: number } };
}

const micros = (start: bigint, end: bigint) => Number(end - start) / 1000;
const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const round = (value: number) => Math.round(value * 10) / 10;
const figures = (values: readonly number[]) => {
  const ordered = sorted(values);
  return { p50: round(quantile(ordered, 0.5)), p99: round(quantile(ordered, 0.99)) };
};

/**
 * Runs the breakdown: `warmup` passes, then `passes` measured passes; a call's time is its median over them. The
 * warm-up is that of `npm run bench` (see `runBench`).
 */
export async function runPolicyLatency(passes: number, warmup = 40): Promise<PolicyLatency> {
  const pack = await loadPack(root('packs/tau-airline'));
  const fresh = await environmentFor(pack.manifest.domain);
  if (fresh === undefined) throw new Error('the airline environment is missing');
  const runs = await readTrajectories(root('data/tau-airline/trajectories-gpt-4o.json'));
  const runtime = new GuardRuntime([pack]);
  // Per write call (in replay order), per policy: its times over the passes.
  const own: Map<string, number[]>[] = [];
  const first: number[][] = [];
  const again: number[][] = [];
  for (let pass = 0; pass < warmup + passes; pass++) {
    let index = 0;
    for (const run of runs) {
      const environment = fresh();
      for (const { call, messageIndex } of run.conversation.toolCalls()) {
        const tool = pack.tools.get(call.name);
        if (tool !== undefined && !tool.spec.readOnly) {
          const contextAt = (): GuardContext => ({
            conversation: run.conversation.before(messageIndex),
            invoker: environment.invoker,
            now: environment.now,
          });
          const t0 = process.hrtime.bigint();
          await runtime.check(call, contextAt());
          const t1 = process.hrtime.bigint();
          await runtime.check(call, contextAt());
          const t2 = process.hrtime.bigint();
          const context = contextAt();
          const times = own[index] ?? new Map<string, number[]>();
          own[index] = times;
          for (const policy of tool.policies) {
            if (policy.check === undefined || policy.entry.state !== 'enforced') continue;
            const start = process.hrtime.bigint();
            // The port's lookups answer at once, so every check does: nothing is left to wait for.
            const finding = policy.check(call.arguments as never, context, call);
            const end = process.hrtime.bigint();
            if (finding instanceof Promise) await finding;
            if (pass >= warmup) times.set(policy.spec.id, [...(times.get(policy.spec.id) ?? []), micros(start, end)]);
          }
          if (pass >= warmup) {
            first[index] = [...(first[index] ?? []), micros(t0, t1)];
            again[index] = [...(again[index] ?? []), micros(t1, t2)];
          }
          index++;
        }
        environment.run(call.name, call.arguments);
      }
    }
  }
  await runtime.close();
  const median = (values: readonly number[]) => quantile(sorted(values), 0.5);
  const byPolicy = new Map<string, number[]>();
  for (const times of own) {
    for (const [policy, values] of times) byPolicy.set(policy, [...(byPolicy.get(policy) ?? []), median(values)]);
  }
  const policies = [...byPolicy.entries()]
    .map(([policy, values]) => ({ policy, calls: values.length, ...figures(values) }))
    .sort((a, b) => b.p50 - a.p50);
  return {
    passes,
    warmup,
    policies,
    decision: { calls: first.length, first: figures(first.map(median)), again: figures(again.map(median)) },
  };
}

/** The breakdown as a table. */
export function formatPolicyLatency(result: PolicyLatency): string {
  const { decision } = result;
  const lines = [
    `write calls' guard time, µs: each call's median over ${result.passes} passes of the 200 recorded runs, after ${result.warmup} warm-up passes`,
    `whole decision (${decision.calls} calls): after the previous tool ran p50 ${decision.first.p50}, p99 ${decision.first.p99}; the same decision again at once p50 ${decision.again.p50}, p99 ${decision.again.p99}`,
    '',
    `${'policy (own time, caches warm)'.padEnd(40)}${'n'.padStart(6)}${'p50'.padStart(8)}${'p99'.padStart(8)}`,
  ];
  for (const row of result.policies) {
    lines.push(
      `${row.policy.padEnd(40)}${String(row.calls).padStart(6)}${String(row.p50).padStart(8)}${String(row.p99).padStart(8)}`,
    );
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const passes = Number(process.env.BENCH_PASSES ?? 5);
  const warmup = Number(process.env.BENCH_WARMUP ?? 40);
  process.stdout.write(`${formatPolicyLatency(await runPolicyLatency(passes, warmup))}\n`);
}
