/**
 * What guarding a tool call costs inside each framework: one agent run in which a scripted model cancels a reservation
 * (a write the airline pack allows, after all five of its cancellation policies are evaluated) and then answers,
 * timed with the guarded tool beside the same tool unguarded, alternating in one process. Run: `npm run bench`
 * (BENCH_RUNS sets the measured runs per framework and variant, default 200, after 20 warm-up runs).
 */
import { cpus } from 'node:os';
import { HumanMessage, AIMessage as LangChainAIMessage } from '@langchain/core/messages';
import { Agent, run, setTracingDisabled } from '@openai/agents';
import type { ModelMessage } from 'ai';
import { generateText, stepCountIs } from 'ai';
import { createAgent } from 'langchain';
import { guardTools } from '../src/adapters/ai-sdk/index.ts';
import { airlineTools as aiSdkTools, scriptedLanguageModel } from '../src/adapters/ai-sdk/test-doubles.ts';
import {
  type Airline,
  airlinePack,
  cancellable,
  cancellationRequest,
  freshAirline,
} from '../src/adapters/airline-fixture.ts';
import type { AdapterOptions } from '../src/adapters/guard-call.ts';
import { guardMiddleware } from '../src/adapters/langchain/index.ts';
import { airlineTools as langChainTools, ScriptedChatModel } from '../src/adapters/langchain/test-doubles.ts';
import { guardAgentTools } from '../src/adapters/openai-agents/index.ts';
import { airlineTools as agentTools, ScriptedAgentModel } from '../src/adapters/openai-agents/test-doubles.ts';
import type { ScriptedStep } from '../src/adapters/scripted-step.ts';
import { quantile } from '../src/replay/report.ts';
import { GuardRuntime } from '../src/runtime/guard-runtime.ts';

setTracingDisabled(true);

/** One framework's figures, in microseconds per agent run. */
export interface AdapterRow {
  framework: string;
  runs: number;
  unguarded: { p50: number; p99: number };
  guarded: { p50: number; p99: number };
}

/** Prepares one run (untimed) and returns the timed part. */
type Prepare = (guarded: boolean) => Promise<() => Promise<void>>;

const tools = ['cancel_reservation'];
const steps = (): ScriptedStep[] => [
  { calls: [{ id: 'call_1', name: 'cancel_reservation', args: { reservation_id: cancellable.reservationId } }] },
  { text: 'Your reservation is cancelled.' },
];
const lines = cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: true });

function checkCancelled(airline: Airline): void {
  const cancels = airline.ran.filter((entry) => entry.tool === 'cancel_reservation').length;
  if (cancels !== 1) throw new Error(`expected the cancellation to run once, it ran ${cancels} times`);
}

async function frameworks(runtime: GuardRuntime): Promise<Record<string, Prepare>> {
  const optionsFor = (airline: Airline): AdapterOptions => ({ invoker: airline.invoker, now: () => airline.now });
  return {
    'AI SDK (generateText)': async (guarded) => {
      const airline = await freshAirline();
      const raw = aiSdkTools(airline, tools);
      const toolSet = guarded ? guardTools(runtime, raw, optionsFor(airline)) : raw;
      const model = scriptedLanguageModel(steps());
      const messages: ModelMessage[] = lines.map((line) => ({ role: line.role, content: line.text }));
      return async () => {
        await generateText({ model, messages, tools: toolSet, stopWhen: stepCountIs(3) });
        checkCancelled(airline);
      };
    },
    'OpenAI Agents (run)': async (guarded) => {
      const airline = await freshAirline();
      const raw = agentTools(airline, tools);
      const guard = guardAgentTools(runtime, raw, optionsFor(airline));
      const agent = new Agent({
        name: 'Airline agent',
        instructions: 'Help the user.',
        model: new ScriptedAgentModel(steps()),
        tools: guarded ? guard.tools : raw,
      });
      const input = lines.map((line) =>
        line.role === 'user'
          ? { role: 'user' as const, content: line.text }
          : {
              role: 'assistant' as const,
              status: 'completed' as const,
              content: [{ type: 'output_text' as const, text: line.text }],
            },
      );
      const runAgent = guarded ? guard.run : run;
      return async () => {
        await runAgent(agent, input);
        checkCancelled(airline);
      };
    },
    'LangChain (createAgent)': async (guarded) => {
      const airline = await freshAirline();
      const raw = langChainTools(airline, tools);
      const agent = createAgent({
        model: new ScriptedChatModel(steps()),
        tools: raw,
        middleware: guarded ? [guardMiddleware(runtime, { ...optionsFor(airline), tools: raw })] : [],
      });
      const messages = lines.map((line) =>
        line.role === 'user' ? new HumanMessage(line.text) : new LangChainAIMessage(line.text),
      );
      return async () => {
        await agent.invoke({ messages });
        checkCancelled(airline);
      };
    },
  };
}

/** Runs the benchmark: per framework, `warmUp` then `runs` runs of each variant, guarded and unguarded alternating. */
export async function runAdapterBench(runs: number, warmUp = 20): Promise<AdapterRow[]> {
  const runtime = new GuardRuntime([await airlinePack()]);
  const rows: AdapterRow[] = [];
  for (const [framework, prepare] of Object.entries(await frameworks(runtime))) {
    const times = { unguarded: [] as number[], guarded: [] as number[] };
    for (let index = 0; index < warmUp + runs; index++) {
      for (const guarded of index % 2 === 0 ? [false, true] : [true, false]) {
        const timed = await prepare(guarded);
        const started = process.hrtime.bigint();
        await timed();
        const micros = Number(process.hrtime.bigint() - started) / 1000;
        if (index >= warmUp) times[guarded ? 'guarded' : 'unguarded'].push(micros);
      }
    }
    rows.push({ framework, runs, unguarded: figures(times.unguarded), guarded: figures(times.guarded) });
  }
  await runtime.close();
  return rows;
}

function figures(values: number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: Math.round(quantile(sorted, 0.5)), p99: Math.round(quantile(sorted, 0.99)) };
}

/** The rows as a markdown table, with the machine. */
export function formatAdapterBench(rows: readonly AdapterRow[]): string {
  const cpu = cpus();
  const lines = [
    'one agent run with one guarded write (cancel_reservation, allowed) beside the same run unguarded, µs per run,',
    `scripted model, ${rows[0]?.runs ?? 0} runs per variant after a warm-up; machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, Node ${process.version}`,
    '',
    '| framework | runs | unguarded p50 | unguarded p99 | guarded p50 | guarded p99 | guard cost p50 |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const cost = row.guarded.p50 - row.unguarded.p50;
    lines.push(
      `| ${row.framework} | ${row.runs} | ${row.unguarded.p50} | ${row.unguarded.p99} | ${row.guarded.p50} | ${row.guarded.p99} | ${cost} |`,
    );
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const runs = Number(process.env.BENCH_RUNS ?? 200);
  process.stdout.write(`${formatAdapterBench(await runAdapterBench(runs))}\n`);
}
