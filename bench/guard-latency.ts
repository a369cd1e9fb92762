/**
 * Guard latency per tool beside the bare tool call, measured side by side in one run over the 200 recorded GPT-4o
 * airline runs, Cedar's engine on the cancellation rules it can express (in passes of its own, later in the same
 * run), and replay throughput. Run: `npm run bench` (BENCH_PASSES sets the measured passes, default 5;
 * BENCH_WARMUP the passes before them, default 40, the first of which is reported as the cold pass).
 */
import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Conversation } from '../src/model/conversation.ts';
import type { GuardContext } from '../src/model/guard-context.ts';
import type { ToolCall } from '../src/model/tool-call.ts';
import { loadPack } from '../src/pack/load-pack.ts';
import { type Environment, type EnvironmentFactory, environmentFor } from '../src/replay/environment.ts';
import { quantile } from '../src/replay/report.ts';
import { readTrajectories, type Trajectory } from '../src/replay/trajectories.ts';
import { GuardRuntime } from '../src/runtime/guard-runtime.ts';
import { cancellationFacts, cedarCovers, cedarDecides, prepareCedar } from './cedar-peer.ts';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** Latency figures of one group of calls, in microseconds. */
export interface LatencyRow {
  group: string;
  calls: number;
  guard: { p50: number; p99: number };
  tool: { p50: number; p99: number };
}

/** What the benchmark measured. */
export interface BenchResult {
  passes: number;
  warmup: number;
  rows: LatencyRow[];
  /** The first pass, with nothing warm: write calls' guard figures. */
  cold: { calls: number; p50: number; p99: number };
  /** The first pass of a fresh process whose runtime was warmed up first (`GuardRuntime.warmUp`). */
  coldAfterWarmUp: ColdPass;
  /** Cedar deciding the cancellation rules it can express, on the same calls as our cancellation guard. */
  cedar: { calls: number; p50: number; p99: number; agreeing: number };
  replay: { trajectoriesPerSecond: number; callsPerSecond: number };
}

const micros = (start: bigint, end: bigint) => Number(end - start) / 1000;
const round = (value: number) => Math.round(value * 10) / 10;

/** p50 and p99 of a list of times. */
function figures(values: readonly number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)) };
}

/** The airline pack, its environment and the 200 recorded runs. */
async function airlineReplay() {
  const pack = await loadPack(root('packs/tau-airline'));
  const fresh = await environmentFor(pack.manifest.domain);
  if (fresh === undefined) throw new Error('the airline environment is missing');
  const runs = await readTrajectories(root('data/tau-airline/trajectories-gpt-4o.json'));
  const writes = new Set([...pack.tools.values()].filter((tool) => !tool.spec.readOnly).map((tool) => tool.spec.name));
  return { pack, fresh, runs, writes };
}

/**
 * A call of a replayed run, where it stands: its guard context (the conversation before it, shared with the run's
 * other calls as a replay shares it), the run's conversation, the call's message and the run's environment.
 */
interface ReplayedCall {
  call: ToolCall;
  context: GuardContext;
  conversation: Conversation;
  messageIndex: number;
  environment: Environment;
}

/** One pass over the runs, each on a fresh environment: `visit` is given every call in order and runs its tool. */
async function replayPass(
  runs: readonly Trajectory[],
  fresh: EnvironmentFactory,
  visit: (replayed: ReplayedCall) => Promise<void>,
): Promise<void> {
  for (const run of runs) {
    const environment = fresh();
    for (const { call, messageIndex } of run.conversation.toolCalls()) {
      const context = {
        conversation: run.conversation.before(messageIndex),
        invoker: environment.invoker,
        now: environment.now,
      };
      await visit({ call, context, conversation: run.conversation, messageIndex, environment });
    }
  }
}

/**
 * Cedar deciding each cancellation of the runs, in passes of its own over the same replay (each call's tool runs
 * between decisions, as in ours), so that neither engine's work sits in the caches the other is timed with: `warmup`
 * passes, then `passes` measured ones. Returns each cancellation's times and how many decisions agree with ours.
 */
async function timeCedar(
  runs: readonly Trajectory[],
  fresh: EnvironmentFactory,
  passes: number,
  warmup: number,
  ours: readonly ('allow' | 'deny')[],
): Promise<{ times: number[][]; agreeing: number }> {
  // By cancellation (in replay order); one without a reservation gives Cedar no facts and is left out.
  const times = new Map<number, number[]>();
  let agreeing = 0;
  for (let pass = 0; pass < warmup + passes; pass++) {
    let index = 0;
    await replayPass(runs, fresh, async ({ call, conversation, messageIndex, environment }) => {
      if (call.name === 'cancel_reservation') {
        const reservationId = String(call.arguments.reservation_id);
        const facts = await cancellationFacts(reservationId, {
          conversation: new Conversation(conversation.messages.slice(0, messageIndex)),
          invoker: environment.invoker,
          now: environment.now,
        });
        if (facts !== undefined) {
          const t0 = process.hrtime.bigint();
          const decision = cedarDecides(reservationId, facts);
          const took = micros(t0, process.hrtime.bigint());
          if (pass === 0 && decision === ours[index]) agreeing++;
          if (pass >= warmup) times.set(index, [...(times.get(index) ?? []), took]);
        }
        index++;
      }
      environment.run(call.name, call.arguments);
    });
  }
  return { times: [...times.values()], agreeing };
}

/** The first pass of a process after `GuardRuntime.warmUp`: what the warm-up ran, and write calls' guard figures. */
export interface ColdPass {
  cases: number;
  warmUpMs: number;
  calls: number;
  p50: number;
  p99: number;
}

/** Measures, in this process (which must have decided nothing yet), the first pass after `GuardRuntime.warmUp`. */
export async function coldPassAfterWarmUp(): Promise<ColdPass> {
  const { pack, fresh, runs, writes } = await airlineReplay();
  const runtime = new GuardRuntime([pack]);
  const { cases, ms } = await runtime.warmUp();
  const times: number[] = [];
  await replayPass(runs, fresh, async ({ call, context, environment }) => {
    const t0 = process.hrtime.bigint();
    await runtime.check(call, context);
    if (writes.has(call.name)) times.push(micros(t0, process.hrtime.bigint()));
    environment.run(call.name, call.arguments);
  });
  await runtime.close();
  return { cases, warmUpMs: ms, calls: times.length, ...figures(times) };
}

/** `coldPassAfterWarmUp` in a fresh process of the same Node, so that nothing this process ran is warm there. */
async function coldPassInFreshProcess(): Promise<ColdPass> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    ...process.execArgv,
    fileURLToPath(import.meta.url),
    coldPassFlag,
  ]);
  return JSON.parse(stdout) as ColdPass;
}

const coldPassFlag = '--cold-pass-after-warm-up';

/**
 * Runs the benchmark: `warmup` passes (at least one; the first is the cold pass), then `passes` measured passes. The
 * warm-up lets the JavaScript engine finish optimising the guards, as it has in a service that has decided some ten
 * thousand calls: a pass's write p50 falls for about 15 passes and jumps while the engine re-optimises a few functions
 * around passes 20 to 35 (the rarer tools' checks run only 50 to 100 times a pass).
 */
export async function runBench(passes: number, warmup = 40): Promise<BenchResult> {
  if (warmup < 1) throw new Error('the benchmark needs at least one warm-up pass: the first pass is the cold one');
  const { pack, fresh, runs, writes } = await airlineReplay();
  const runtime = new GuardRuntime([pack]);
  prepareCedar();
  // Per call (in replay order), its guard and tool time in each measured pass.
  const calls: { tool: string; guard: number[]; tool_: number[]; cold: number }[] = [];
  // Our first decision of each cancellation, which Cedar's decision is compared with.
  const ours: ('allow' | 'deny')[] = [];
  let replayMs = 0;
  for (let pass = 0; pass < warmup + passes; pass++) {
    const started = performance.now();
    let index = 0;
    await replayPass(runs, fresh, async ({ call, context, environment }) => {
      const t0 = process.hrtime.bigint();
      const verdict = await runtime.check(call, context);
      const t1 = process.hrtime.bigint();
      environment.run(call.name, call.arguments);
      const t2 = process.hrtime.bigint();
      if (pass === 0) {
        calls.push({ tool: call.name, guard: [], tool_: [], cold: micros(t0, t1) });
        if (call.name === 'cancel_reservation') {
          ours.push(verdict.violations.some((violation) => cedarCovers.has(violation.policy)) ? 'deny' : 'allow');
        }
      } else if (pass >= warmup) {
        calls[index]?.guard.push(micros(t0, t1));
        calls[index]?.tool_.push(micros(t1, t2));
      }
      index++;
    });
    if (pass >= warmup) replayMs += performance.now() - started;
  }
  const cedar = await timeCedar(runs, fresh, passes, warmup, ours);
  await runtime.close();
  // A call's latency is its median over the passes, which keeps one pass's pauses out of the per-call figure.
  const median = (values: number[]) =>
    quantile(
      [...values].sort((a, b) => a - b),
      0.5,
    );
  const groups = new Map<string, { guard: number[]; tool: number[] }>();
  for (const call of calls) {
    for (const group of [call.tool, 'all calls', writes.has(call.tool) ? 'write calls' : 'read calls']) {
      const times = groups.get(group) ?? { guard: [], tool: [] };
      times.guard.push(median(call.guard));
      times.tool.push(median(call.tool_));
      groups.set(group, times);
    }
  }
  const rows = [...groups.entries()]
    .map(([group, times]) => ({
      group,
      calls: times.guard.length,
      guard: figures(times.guard),
      tool: figures(times.tool),
    }))
    .sort((a, b) => (a.group.includes(' ') ? 0 : 1) - (b.group.includes(' ') ? 0 : 1) || b.calls - a.calls);
  const written = calls.filter((call) => writes.has(call.tool));
  return {
    passes,
    warmup,
    rows,
    cold: { calls: written.length, ...figures(written.map((call) => call.cold)) },
    coldAfterWarmUp: await coldPassInFreshProcess(),
    cedar: { calls: cedar.times.length, ...figures(cedar.times.map(median)), agreeing: cedar.agreeing },
    replay: {
      trajectoriesPerSecond: Math.round((runs.length * passes) / (replayMs / 1000)),
      callsPerSecond: Math.round((calls.length * passes) / (replayMs / 1000)),
    },
  };
}

/** The result as a table. */
export function formatBench(result: BenchResult): string {
  const cpu = cpus();
  const lines = [
    `guard latency beside the bare tool call, µs: each call's median over ${result.passes} passes of the 200 recorded runs, after ${result.warmup} warm-up passes`,
    `machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, Node ${process.version}`,
    '',
    `${'calls'.padEnd(30)}${'n'.padStart(6)}${'guard p50'.padStart(11)}${'guard p99'.padStart(11)}${'tool p50'.padStart(10)}${'tool p99'.padStart(10)}${'p50 ratio'.padStart(11)}`,
  ];
  for (const row of result.rows) {
    const ratio = row.tool.p50 > 0 ? `${(row.guard.p50 / row.tool.p50).toFixed(1)}x` : '-';
    lines.push(
      `${row.group.padEnd(30)}${String(row.calls).padStart(6)}${String(row.guard.p50).padStart(11)}${String(row.guard.p99).padStart(11)}${String(row.tool.p50).padStart(10)}${String(row.tool.p99).padStart(10)}${ratio.padStart(11)}`,
    );
  }
  const ours = result.rows.find((row) => row.group === 'cancel_reservation');
  const { cedar } = result;
  lines.push(
    `${'cedar: cancel, 3 rules'.padEnd(30)}${String(cedar.calls).padStart(6)}${String(cedar.p50).padStart(11)}${String(cedar.p99).padStart(11)}${'-'.padStart(10)}${'-'.padStart(10)}${'-'.padStart(11)}`,
    '',
    `cancel_reservation: our guard (every policy, lookups and the conversation read) ${ours === undefined || cedar.p50 === 0 ? '-' : (ours.guard.p50 / cedar.p50).toFixed(2)}x Cedar's p50 (its facts precomputed, policy set preparsed); Cedar agrees with our eligibility, flown and owner policies on ${cedar.agreeing} of ${cedar.calls} calls`,
    `cold first pass (nothing warm), write calls: guard p50 ${result.cold.p50} µs, p99 ${result.cold.p99} µs`,
    `cold first pass after warmUp() (${result.coldAfterWarmUp.cases} test cases, ${result.coldAfterWarmUp.warmUpMs} ms, in a fresh process), write calls: guard p50 ${result.coldAfterWarmUp.p50} µs, p99 ${result.coldAfterWarmUp.p99} µs`,
    '',
    `replay throughput (guards and tools): ${result.replay.trajectoriesPerSecond} runs/s, ${result.replay.callsPerSecond} calls/s`,
  );
  return lines.join('\n');
}

if (import.meta.main && process.argv.includes(coldPassFlag)) {
  process.stdout.write(JSON.stringify(await coldPassAfterWarmUp()));
} else if (import.meta.main) {
  const passes = Number(process.env.BENCH_PASSES ?? 5);
  const warmup = Number(process.env.BENCH_WARMUP ?? 40);
  process.stdout.write(`${formatBench(await runBench(passes, warmup))}\n`);
}
