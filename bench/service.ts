/**
 * The decision service under a bounded loopback load beside the in-process runtime: a fixed number of clients each
 * send a fixed number of checks (the 1,164 calls of the 200 recorded GPT-4o airline runs, in turn) to
 * `agentguard serve --lookups tau-airline`, without and with a SQLite audit log; every answer must be 200. Run:
 * `node bench/service.ts` (part of `npm run bench`; SERVICE_CLIENTS and SERVICE_CHECKS set the load, default 16 × 250).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromOpenAIChat } from '../src/model/openai-chat.ts';
import { loadPack } from '../src/pack/load-pack.ts';
import { environmentFor } from '../src/replay/environment.ts';
import { quantile } from '../src/replay/report.ts';
import { readTrajectories } from '../src/replay/trajectories.ts';
import { GuardRuntime } from '../src/runtime/guard-runtime.ts';
import { startServeProcess } from '../src/service/serve-process.ts';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** One way of deciding calls, measured. */
export interface ServiceRow {
  setup: string;
  checks: number;
  /** Answers other than 200 (always 0 in-process). */
  failures: number;
  checksPerSecond: number;
  /** Latency of one check, in milliseconds. */
  p50: number;
  p99: number;
}

/** What the benchmark measured. */
export interface ServiceBenchResult {
  clients: number;
  checksPerClient: number;
  rows: ServiceRow[];
}

interface CheckBody {
  call: { id: string; name: string; arguments: Record<string, unknown> };
  messages: unknown[];
  now: string;
}

async function requests(): Promise<CheckBody[]> {
  const file = root('data/tau-airline/trajectories-gpt-4o.json');
  const runs = await readTrajectories(file);
  const raw = JSON.parse(await readFile(file, 'utf8')) as { traj: unknown[] }[];
  const now = new Date('2024-05-15T15:00:00-05:00').toISOString();
  return runs.flatMap((run, index) =>
    run.conversation.toolCalls().map(({ call, messageIndex }) => ({
      call: { id: call.id, name: call.name, arguments: call.arguments },
      messages: raw[index]?.traj.slice(0, messageIndex) ?? [],
      now,
    })),
  );
}

function row(setup: string, latencies: number[], failures: number, elapsedMs: number): ServiceRow {
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    setup,
    checks: latencies.length,
    failures,
    checksPerSecond: Math.round(latencies.length / (elapsedMs / 1000)),
    p50: round(quantile(sorted, 0.5)),
    p99: round(quantile(sorted, 0.99)),
  };
}

/** In-process: the same checks one after another, the conversation read from the same OpenAI messages. */
async function inProcess(bodies: CheckBody[], total: number): Promise<ServiceRow> {
  const fresh = await environmentFor('tau-airline');
  const environment = fresh?.();
  if (environment === undefined) throw new Error('the airline environment is missing');
  const runtime = new GuardRuntime([await loadPack(root('packs/tau-airline'))]);
  const latencies: number[] = [];
  const started = performance.now();
  for (let index = 0; index < total; index++) {
    const body = bodies[index % bodies.length] as CheckBody;
    const t0 = performance.now();
    const conversation = fromOpenAIChat(body.messages, 'messages');
    await runtime.check(body.call, { conversation, invoker: environment.invoker, now: new Date(body.now) });
    latencies.push(performance.now() - t0);
  }
  const elapsed = performance.now() - started;
  await runtime.close();
  return row('in-process (one caller)', latencies, 0, elapsed);
}

/** Over HTTP: `clients` concurrent clients, each sending `checks` checks one after another. */
async function overHttp(
  setup: string,
  bodies: CheckBody[],
  clients: number,
  checks: number,
  extra: string[],
): Promise<ServiceRow> {
  const service = await startServeProcess([
    '--pack',
    root('packs/tau-airline'),
    '--port',
    '0',
    '--lookups',
    'tau-airline',
    ...extra,
  ]);
  const texts = bodies.map((body) => JSON.stringify(body));
  const send = (text: string) =>
    fetch(`${service.url}/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  try {
    // Warm-up, so that the service has compiled its hot paths before it is measured.
    for (const text of texts.slice(0, Math.min(200, clients * checks))) await (await send(text)).arrayBuffer();
    const latencies: number[] = [];
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let index = 0; index < checks; index++) {
          const text = texts[(client * checks + index) % texts.length] as string;
          const t0 = performance.now();
          const response = await send(text);
          await response.arrayBuffer();
          latencies.push(performance.now() - t0);
          if (response.status !== 200) failures++;
        }
      }),
    );
    return row(setup, latencies, failures, performance.now() - started);
  } finally {
    await service.stop();
  }
}

/** Runs the benchmark. */
export async function runServiceBench(clients: number, checks: number): Promise<ServiceBenchResult> {
  const bodies = await requests();
  const dir = await mkdtemp(join(tmpdir(), 'agentguard-bench-'));
  try {
    const rows = [
      await inProcess(bodies, clients * checks),
      await overHttp(`service, ${clients} clients`, bodies, clients, checks, []),
      await overHttp(`service + SQLite audit, ${clients} clients`, bodies, clients, checks, [
        '--audit',
        join(dir, 'audit.db'),
      ]),
    ];
    return { clients, checksPerClient: checks, rows };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The result as a table. */
export function formatServiceBench(result: ServiceBenchResult): string {
  const cpu = cpus();
  const lines = [
    `decision service on loopback beside the in-process runtime: ${result.clients} clients × ${result.checksPerClient} checks, the 1,164 airline calls in turn`,
    `machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, Node ${process.version}`,
    '',
    `${'setup'.padEnd(40)}${'checks'.padStart(8)}${'non-200'.padStart(9)}${'checks/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}`,
  ];
  for (const row of result.rows) {
    lines.push(
      `${row.setup.padEnd(40)}${String(row.checks).padStart(8)}${String(row.failures).padStart(9)}${String(row.checksPerSecond).padStart(10)}${String(row.p50).padStart(9)}${String(row.p99).padStart(9)}`,
    );
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const result = await runServiceBench(
    Number(process.env.SERVICE_CLIENTS ?? 16),
    Number(process.env.SERVICE_CHECKS ?? 250),
  );
  process.stdout.write(`${formatServiceBench(result)}\n`);
  if (result.rows.some((row) => row.failures > 0)) {
    process.stderr.write('some checks were not answered with 200\n');
    process.exitCode = 1;
  }
}
