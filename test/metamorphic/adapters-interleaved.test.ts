/**
 * Metamorphic relation for the framework adapters: interleaving two runs that share the app's context object (and the
 * guarded tools) does not move either run's verdicts toward allow. Run A's user never confirmed the cancellation; run
 * B's said yes to the same one. Alone, A's write is denied and B's allowed; for every interleaving of the two runs'
 * model calls, A's write is still denied and never runs, and B's is still allowed and runs once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { Agent, type Model, type ModelRequest, setTracingDisabled } from '@openai/agents';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createAgent } from 'langchain';
import { guardTools } from '../../src/adapters/ai-sdk/index.ts';
import {
  airlineTools as aiSdkTools,
  modelMessages,
  scriptedLanguageModel,
} from '../../src/adapters/ai-sdk/test-doubles.ts';
import {
  type Airline,
  airlinePack,
  cancellable,
  cancellationRequest,
  freshAirline,
} from '../../src/adapters/airline-fixture.ts';
import type { AdapterOptions } from '../../src/adapters/guard-call.ts';
import { guardMiddleware } from '../../src/adapters/langchain/index.ts';
import {
  langChainMessages,
  airlineTools as langChainTools,
  ScriptedChatModel,
} from '../../src/adapters/langchain/test-doubles.ts';
import { guardAgentTools } from '../../src/adapters/openai-agents/index.ts';
import {
  agentItems,
  airlineTools as agentTools,
  ScriptedAgentModel,
} from '../../src/adapters/openai-agents/test-doubles.ts';
import type { ScriptedStep } from '../../src/adapters/scripted-step.ts';
import type { Decision } from '../../src/model/verdict.ts';
import { GuardRuntime } from '../../src/runtime/guard-runtime.ts';

setTracingDisabled(true);

type Run = 'A' | 'B';
const runs: readonly Run[] = ['A', 'B'];

/** Each run: look the reservation up, cancel it, answer. A's user never confirmed; B's said yes. */
const steps = (run: Run): ScriptedStep[] => {
  const prefix = run.toLowerCase();
  const reservation = { reservation_id: cancellable.reservationId };
  return [
    { calls: [{ id: `${prefix}1`, name: 'get_reservation_details', args: reservation }] },
    { calls: [{ id: `${prefix}2`, name: 'cancel_reservation', args: reservation }] },
    { text: 'Done.' },
  ];
};
const writeOf: Record<Run, string> = { A: 'a2', B: 'b2' };
const opening = (run: Run) =>
  cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: run === 'B' });

/** Every order in which the model calls of two runs of `length` calls each can answer. */
function* interleavings(length: number, prefix: Run[] = [], left = { A: length, B: length }): Generator<Run[]> {
  if (left.A === 0 && left.B === 0) {
    yield prefix;
    return;
  }
  for (const run of runs) {
    if (left[run] > 0) yield* interleavings(length, [...prefix, run], { ...left, [run]: left[run] - 1 });
  }
}

/**
 * Lets the runs' model calls answer in a given order: a model call waits for its turn; a run that ended gives up its
 * turns; once the order is spent, every call answers at once.
 */
class Schedule {
  private readonly order: Run[];
  private readonly waiting = new Map<Run, () => void>();
  private readonly ended = new Set<Run>();

  constructor(order: readonly Run[]) {
    this.order = [...order];
  }

  turn(run: Run): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.set(run, resolve);
      this.pump();
    });
  }

  end(run: Run): void {
    this.ended.add(run);
    this.pump();
  }

  private pump(): void {
    for (;;) {
      const next = this.order[0];
      if (next === undefined) break;
      const release = this.waiting.get(next);
      if (release !== undefined) {
        this.order.shift();
        this.waiting.delete(next);
        release();
      } else if (this.ended.has(next)) this.order.shift();
      else return;
    }
    for (const [run, release] of this.waiting) {
      this.waiting.delete(run);
      release();
    }
  }
}

/** What a scenario leaves: the decision on each run's write, and how many cancellations ran. */
interface Outcome {
  decisions: Partial<Record<Run, Decision>>;
  cancellations: number;
}

/** An adapter under test: runs the given runs at once, sharing one context object, with one guard. */
type Scenario = (
  airline: Airline,
  options: AdapterOptions,
  runsToStart: readonly Run[],
  schedule: Schedule,
) => Promise<void>;

const shared = { services: 'the app dependencies both runs use' };

const scenarios: Record<string, Scenario> = {
  'OpenAI Agents (guard.run)': async (airline, options, started, schedule) => {
    const runtime = new GuardRuntime([await airlinePack()]);
    const guard = guardAgentTools(
      runtime,
      agentTools(airline, ['get_reservation_details', 'cancel_reservation']),
      options,
    );
    await Promise.all(
      started.map(async (run) => {
        const scripted = new ScriptedAgentModel(steps(run));
        const model: Model = {
          getResponse: async (request: ModelRequest) => {
            const response = await scripted.getResponse(request);
            await schedule.turn(run);
            return response;
          },
          getStreamedResponse: (request: ModelRequest) => scripted.getStreamedResponse(request),
        };
        const agent = new Agent({ name: 'Airline agent', instructions: 'Help.', model, tools: guard.tools });
        try {
          await guard.run(agent, agentItems(opening(run)), { context: shared });
        } finally {
          schedule.end(run);
        }
      }),
    );
  },
  'AI SDK (generateText)': async (airline, options, started, schedule) => {
    const runtime = new GuardRuntime([await airlinePack()]);
    const tools = guardTools(runtime, aiSdkTools(airline, ['get_reservation_details', 'cancel_reservation']), options);
    await Promise.all(
      started.map(async (run) => {
        const scripted = scriptedLanguageModel(steps(run));
        const model = new MockLanguageModelV4({
          doGenerate: async (callOptions) => {
            const result = await scripted.doGenerate(callOptions);
            await schedule.turn(run);
            return result;
          },
        });
        try {
          await generateText({
            model,
            messages: modelMessages(opening(run)),
            tools,
            stopWhen: stepCountIs(5),
            runtimeContext: shared,
          });
        } finally {
          schedule.end(run);
        }
      }),
    );
  },
  'LangChain (createAgent)': async (airline, options, started, schedule) => {
    const runtime = new GuardRuntime([await airlinePack()]);
    const tools = langChainTools(airline, ['get_reservation_details', 'cancel_reservation']);
    const middleware = guardMiddleware(runtime, { ...options, tools });
    const checkpointer = new MemorySaver();
    await Promise.all(
      started.map(async (run) => {
        const model = new (class extends ScriptedChatModel {
          override async _generate(messages: BaseMessage[]) {
            const result = await super._generate(messages);
            await schedule.turn(run);
            return result;
          }
        })(steps(run));
        const agent = createAgent({ model, tools, middleware: [middleware], checkpointer });
        try {
          await agent.invoke(
            { messages: langChainMessages(opening(run)) },
            { configurable: { thread_id: run }, context: shared },
          );
        } finally {
          schedule.end(run);
        }
      }),
    );
  },
};

async function play(scenario: Scenario, started: readonly Run[], order: readonly Run[]): Promise<Outcome> {
  const airline = await freshAirline();
  const decisions: Outcome['decisions'] = {};
  const options: AdapterOptions = {
    invoker: airline.invoker,
    now: () => airline.now,
    onVerdict: (verdict, call) => {
      for (const run of runs) if (call.id === writeOf[run]) decisions[run] = verdict.decision;
    },
  };
  await scenario(airline, options, started, new Schedule(order));
  const cancellations = airline.ran.filter((entry) => entry.tool === 'cancel_reservation').length;
  return { decisions, cancellations };
}

const rank: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

describe('interleaved runs sharing a context object', () => {
  for (const [name, scenario] of Object.entries(scenarios)) {
    it(`${name}: no interleaving moves a run's write toward allow, and A's never runs`, async () => {
      const alone = {
        A: (await play(scenario, ['A'], [])).decisions.A,
        B: (await play(scenario, ['B'], [])).decisions.B,
      };
      assert.deepEqual(alone, { A: 'deny', B: 'allow' });
      let orders = 0;
      for (const order of interleavings(steps('A').length)) {
        orders += 1;
        const { decisions, cancellations } = await play(scenario, runs, order);
        const seen = `order ${order.join('')}`;
        for (const run of runs) {
          const decision = decisions[run];
          assert.ok(decision !== undefined, `${seen}: no verdict on ${run}'s write`);
          assert.ok(
            rank[decision] >= rank[alone[run]],
            `${seen}: ${run}'s write moved from ${alone[run]} to ${decision}`,
          );
        }
        assert.equal(decisions.A, 'deny', `${seen}: A's write`);
        assert.equal(cancellations, 1, `${seen}: only B's write runs`);
      }
      assert.equal(orders, 20);
    });
  }
});
