/**
 * Guard latency per tool beside the bare tool call, measured side by side in one run over the 200 recorded GPT-4o
 * airline runs, and replay throughput. Run: `npm run bench` (BENCH_PASSES sets the measured passes, default 5).
 */
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Conversation } from '../src/model/conversation.ts';
import { loadPack } from '../src/pack/load-pack.ts';
import { environmentFor } from '../src/replay/environment.ts';
import { quantile } from '../src/replay/report.ts';
import { readTrajectories } from '../src/replay/trajectories.ts';
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
  rows: LatencyRow[];
  /** The first pass, with nothing warm: write calls' guard figures. */
  cold: { calls: number; p50: number; p99: number };
  /** Cedar deciding the cancellation rules it can express, beside our cancellation guard, on the same calls. */
  cedar: { calls: number; p50: number; p99: number; agreeing: number };
  replay: { trajectoriesPerSecond: number; callsPerSecond: number };
}

const micros = (start: bigint, end: bigint) => Number(end - start) / 1000;

/** Runs the benchmark: one warm-up pass, then `passes` measured passes. */
export async function runBench(passes: number): Promise<BenchResult> {
  const pack = await loadPack(root('packs/tau-airline'));
  const fresh = await environmentFor(pack.manifest.domain);
  if (fresh === undefined) throw new Error('the airline environment is missing');
  const runs = await readTrajectories(root('data/tau-airline/trajectories-gpt-4o.json'));
  const runtime = new GuardRuntime([pack]);
  const writes = new Set([...pack.tools.values()].filter((tool) => !tool.spec.readOnly).map((tool) => tool.spec.name));
  // Per call (in replay order), its guard and tool time in each measured pass.
  const calls: { tool: string; guard: number[]; tool_: number[]; cold: number; cedar: number[] }[] = [];
  prepareCedar();
  let agreeing = 0;
  let replayMs = 0;
  for (let pass = 0; pass <= passes; pass++) {
    const started = performance.now();
    let index = 0;
    for (const run of runs) {
      const environment = fresh();
      for (const { call, messageIndex } of run.conversation.toolCalls()) {
        const context = {
          conversation: run.conversation.before(messageIndex),
          invoker: environment.invoker,
          now: environment.now,
        };
        const facts =
          call.name === 'cancel_reservation'
            ? // A context of its own, so that reading the facts warms nothing our guard then reads.
              await cancellationFacts(String(call.arguments.reservation_id), {
                ...context,
                conversation: new Conversation(context.conversation.messages),
              })
            : undefined;
        const t0 = process.hrtime.bigint();
        const verdict = await runtime.check(call, context);
        const t1 = process.hrtime.bigint();
        let cedar = 0;
        if (facts !== undefined) {
          const c0 = process.hrtime.bigint();
          const decision = cedarDecides(String(call.arguments.reservation_id), facts);
          cedar = micros(c0, process.hrtime.bigint());
          const ours = verdict.violations.some((violation) => cedarCovers.has(violation.policy)) ? 'deny' : 'allow';
          if (pass === 0 && decision === ours) agreeing++;
        }
        const t2 = process.hrtime.bigint();
        environment.run(call.name, call.arguments);
        const t3 = process.hrtime.bigint();
        if (pass === 0) calls.push({ tool: call.name, guard: [], tool_: [], cold: micros(t0, t1), cedar: [] });
        else {
          calls[index]?.guard.push(micros(t0, t1));
          calls[index]?.tool_.push(micros(t2, t3));
          if (facts !== undefined) calls[index]?.cedar.push(cedar);
        }
        index++;
      }
    }
    if (pass > 0) replayMs += performance.now() - started;
  }
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
  const round = (value: number) => Math.round(value * 10) / 10;
  const figures = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)) };
  };
  const rows = [...groups.entries()]
    .map(([group, times]) => ({
      group,
      calls: times.guard.length,
      guard: figures(times.guard),
      tool: figures(times.tool),
    }))
    .sort((a, b) => (a.group.includes(' ') ? 0 : 1) - (b.group.includes(' ') ? 0 : 1) || b.calls - a.calls);
  const written = calls.filter((call) => writes.has(call.tool));
  const withCedar = calls.filter((call) => call.cedar.length > 0);
  return {
    passes,
    rows,
    cold: { calls: written.length, ...figures(written.map((call) => call.cold)) },
    cedar: { calls: withCedar.length, ...figures(withCedar.map((call) => median(call.cedar))), agreeing },
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
    `guard latency beside the bare tool call, µs: each call's median over ${result.passes} passes of the 200 recorded runs, after one warm-up pass`,
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
    '',
    `replay throughput (guards and tools): ${result.replay.trajectoriesPerSecond} runs/s, ${result.replay.callsPerSecond} calls/s`,
  );
  return lines.join('\n');
}

if (import.meta.main) {
  const passes = Number(process.env.BENCH_PASSES ?? 5);
  process.stdout.write(`${formatBench(await runBench(passes))}\n`);
}
