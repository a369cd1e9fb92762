/**
 * Guard latency per tool beside the bare tool call, measured side by side in one run over the 200 recorded GPT-4o
 * airline runs, and replay throughput. Run: `npm run bench` (BENCH_PASSES sets the measured passes, default 5).
 */
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadPack } from '../src/pack/load-pack.ts';
import { environmentFor } from '../src/replay/environment.ts';
import { quantile } from '../src/replay/report.ts';
import { readTrajectories } from '../src/replay/trajectories.ts';
import { GuardRuntime } from '../src/runtime/guard-runtime.ts';

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
  const calls: { tool: string; guard: number[]; tool_: number[] }[] = [];
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
        const t0 = process.hrtime.bigint();
        await runtime.check(call, context);
        const t1 = process.hrtime.bigint();
        environment.run(call.name, call.arguments);
        const t2 = process.hrtime.bigint();
        if (pass === 0) calls.push({ tool: call.name, guard: [], tool_: [] });
        else {
          calls[index]?.guard.push(micros(t0, t1));
          calls[index]?.tool_.push(micros(t1, t2));
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
  return {
    passes,
    rows,
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
  lines.push(
    '',
    `replay throughput (guards and tools): ${result.replay.trajectoriesPerSecond} runs/s, ${result.replay.callsPerSecond} calls/s`,
  );
  return lines.join('\n');
}

if (import.meta.main) {
  const passes = Number(process.env.BENCH_PASSES ?? 5);
  process.stdout.write(`${formatBench(await runBench(passes))}\n`);
}
