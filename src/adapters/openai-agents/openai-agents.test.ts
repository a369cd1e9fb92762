import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  Agent,
  type Model,
  type ModelRequest,
  RunContext,
  Runner,
  RunState,
  run,
  setTracingDisabled,
  ToolCallError,
} from '@openai/agents';
import type { AskOutcome } from '../../audit/audit-record.ts';
import type { ToolCall } from '../../model/tool-call.ts';
import type { Verdict } from '../../model/verdict.ts';
import { GuardRuntime } from '../../runtime/guard-runtime.ts';
import { GuardDeniedError } from '../../runtime/guard-tool.ts';
import { airlinePack, cancellable, cancellationRequest, freshAirline, notCancellable } from '../airline-fixture.ts';
import type { AdapterOptions } from '../guard-call.ts';
import { guardAgentTools } from './index.ts';
import { agentItems, airlineTools, ScriptedAgentModel } from './test-doubles.ts';

setTracingDisabled(true);

/** The output of the function call of that id, as the model was given it in a request. */
function outputSeen(request: ModelRequest | undefined, callId: string): string {
  const input = Array.isArray(request?.input) ? request.input : [];
  for (const item of input) {
    if (item.type === 'function_call_result' && item.callId === callId) {
      return typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
    }
  }
  return '';
}

async function setUp(options: { ask?: string[]; shadow?: boolean; onDeny?: 'throw' } = {}) {
  const runtime = new GuardRuntime([await airlinePack({ ask: options.ask ?? [] })], {
    shadow: options.shadow ?? false,
  });
  const airline = await freshAirline();
  const verdicts: { verdict: Verdict; call: ToolCall; outcome?: AskOutcome }[] = [];
  const adapterOptions: AdapterOptions = {
    invoker: airline.invoker,
    now: () => airline.now,
    onVerdict: (verdict, call, outcome) => verdicts.push({ verdict, call, ...(outcome ? { outcome } : {}) }),
    ...(options.onDeny ? { onDeny: options.onDeny } : {}),
  };
  const guard = guardAgentTools(
    runtime,
    airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
    adapterOptions,
  );
  const agentFor = (model: Model) =>
    new Agent({ name: 'Airline agent', instructions: 'Help.', model, tools: guard.tools });
  return { airline, verdicts, guard, agentFor };
}

const cancel = (id: string, reservationId: string) => ({
  id,
  name: 'cancel_reservation',
  args: { reservation_id: reservationId },
});

describe('agentguard/openai-agents', () => {
  it('keeps a denied write from the tool and hands the model the feedback as the tool output', async () => {
    const { airline, verdicts, guard, agentFor } = await setUp();
    const model = new ScriptedAgentModel([
      { calls: [cancel('c1', notCancellable.reservationId)] },
      { text: 'I cannot cancel it.' },
    ]);
    const result = await guard.run(
      agentFor(model),
      agentItems(cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true })),
    );
    assert.equal(result.finalOutput, 'I cannot cancel it.');
    assert.deepEqual(airline.ran, []);
    assert.equal(await airline.status(notCancellable.reservationId), 'active');
    const feedback = outputSeen(model.requests[1], 'c1');
    assert.match(feedback, /was blocked/);
    assert.match(feedback, /cancel\.eligibility/);
    assert.equal(verdicts.at(-1)?.verdict.decision, 'deny');
  });

  it('runs an allowed write once with the checked arguments, deciding from the run items', async () => {
    const { airline, verdicts, guard, agentFor } = await setUp();
    const model = new ScriptedAgentModel([
      { calls: [{ id: 'c1', name: 'get_reservation_details', args: { reservation_id: cancellable.reservationId } }] },
      { calls: [cancel('c2', cancellable.reservationId)] },
      { text: 'Cancelled.' },
    ]);
    const result = await guard.run(
      agentFor(model),
      agentItems(cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: true })),
    );
    assert.equal(result.finalOutput, 'Cancelled.');
    assert.deepEqual(
      airline.ran.map((entry) => entry.tool),
      ['get_reservation_details', 'cancel_reservation'],
    );
    assert.equal(await airline.status(cancellable.reservationId), 'cancelled');
    const checked = verdicts.filter((entry) => entry.call.name === 'cancel_reservation');
    assert.equal(checked.length, 1);
    assert.equal(checked[0]?.verdict.decision, 'allow');
    assert.deepEqual(checked[0]?.call.arguments, airline.ran[1]?.args);
  });

  for (const approved of [true, false]) {
    for (const saved of [false, true]) {
      const resume = saved ? 'a state restored with RunState.fromString' : 'the same state';
      it(`interrupts an ask with its reason and ${approved ? 'runs the approved call' : 'does not run the rejected call'} on resuming ${resume}`, async () => {
        const { airline, verdicts, guard, agentFor } = await setUp({ ask: ['cancel.eligibility'] });
        const agent = agentFor(
          new ScriptedAgentModel([
            { calls: [cancel('c1', notCancellable.reservationId)] },
            { text: approved ? 'Cancelled.' : 'Not cancelled.' },
          ]),
        );
        const paused = await guard.run(
          agent,
          agentItems(cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true })),
        );
        assert.equal(paused.interruptions.length, 1);
        assert.deepEqual(airline.ran, []);
        assert.equal(verdicts.length, 0, 'an ask is reported once answered');
        const state = saved
          ? ((await RunState.fromString(agent, paused.state.toString())) as typeof paused.state)
          : paused.state;
        for (const interruption of state.getInterruptions()) {
          assert.match((await guard.reasonFor(state, interruption)) ?? '', /cancel\.eligibility/);
        }
        for (const interruption of state.getInterruptions()) {
          if (approved) state.approve(interruption);
          else state.reject(interruption);
        }
        const resumed = await guard.run(agent, state);
        assert.equal(resumed.finalOutput, approved ? 'Cancelled.' : 'Not cancelled.');
        assert.deepEqual(
          airline.ran,
          approved ? [{ tool: 'cancel_reservation', args: { reservation_id: notCancellable.reservationId } }] : [],
        );
        assert.equal(await airline.status(notCancellable.reservationId), approved ? 'cancelled' : 'active');
        assert.deepEqual(
          verdicts.map(({ verdict, call, outcome }) => [call.id, verdict.decision, outcome]),
          [['c1', 'ask', { answer: approved ? 'approved' : 'declined', ran: approved }]],
        );
      });
    }
  }

  it('in shadow mode runs everything and reports what the policies decided', async () => {
    const { airline, verdicts, guard, agentFor } = await setUp({ shadow: true });
    await guard.run(
      agentFor(new ScriptedAgentModel([{ calls: [cancel('c1', notCancellable.reservationId)] }, { text: 'Done.' }])),
      agentItems(cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true })),
    );
    assert.deepEqual(
      airline.ran.map((entry) => entry.tool),
      ['cancel_reservation'],
    );
    assert.equal(verdicts.at(-1)?.verdict.decision, 'allow');
    assert.equal(verdicts.at(-1)?.verdict.evaluated, 'deny');
  });

  it('throws GuardDeniedError out of the run when asked to', async () => {
    const { airline, guard, agentFor } = await setUp({ onDeny: 'throw' });
    await assert.rejects(
      guard.run(
        agentFor(new ScriptedAgentModel([{ calls: [cancel('c1', cancellable.reservationId)] }, { text: 'Done.' }])),
        agentItems(cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: false })),
      ),
      (error: unknown) => {
        const denied = error instanceof ToolCallError ? error.error : undefined;
        return denied instanceof GuardDeniedError && /cancel\.user_confirmation/.test(denied.message);
      },
    );
    assert.deepEqual(airline.ran, []);
  });

  it('refuses to decide in a run it did not start, saying what to use', async () => {
    const { airline, agentFor } = await setUp();
    await assert.rejects(
      run(
        agentFor(new ScriptedAgentModel([{ calls: [cancel('c1', cancellable.reservationId)] }, { text: 'Done.' }])),
        agentItems(cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: true })),
      ),
      /run the agent with `run` from guardAgentTools/,
    );
    assert.deepEqual(airline.ran, []);
  });

  it("runs the run's own callModelInputFilter after its own record, and decides on the run's items", async () => {
    const { airline, guard, agentFor } = await setUp();
    const model = new ScriptedAgentModel([{ calls: [cancel('c1', cancellable.reservationId)] }, { text: 'Done.' }]);
    let filtered = 0;
    await guard.run(
      agentFor(model),
      agentItems(cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: true })),
      {
        callModelInputFilter: ({ modelData }) => {
          filtered += 1;
          return { ...modelData, input: modelData.input.slice(-1) };
        },
      },
    );
    assert.equal(filtered, 2);
    assert.equal(model.requests[0]?.input.length, 1);
    assert.deepEqual(
      airline.ran.map((entry) => entry.tool),
      ['cancel_reservation'],
    );
  });

  it('runs on a Runner of the caller, with its configured filter, and streamed', async () => {
    const { airline, guard, agentFor } = await setUp();
    let filtered = 0;
    const runner = new Runner({
      callModelInputFilter: ({ modelData }) => {
        filtered += 1;
        return modelData;
      },
    });
    const model = new ScriptedAgentModel([{ calls: [cancel('c1', cancellable.reservationId)] }, { text: 'Done.' }]);
    const streamed = await guard.runWith(runner)(
      agentFor(model),
      agentItems(cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: true })),
      { stream: true },
    );
    await streamed.completed;
    assert.equal(streamed.finalOutput, 'Done.');
    assert.equal(filtered, 2);
    assert.deepEqual(
      airline.ran.map((entry) => entry.tool),
      ['cancel_reservation'],
    );
  });

  it('refuses a run whose RunContext another run is using', async () => {
    const { guard, agentFor } = await setUp();
    const shared = new RunContext({});
    const slow = agentFor(new ScriptedAgentModel([{ text: 'One.' }]));
    const first = guard.run(slow, 'Hello.', { context: shared });
    await assert.rejects(guard.run(slow, 'Hello.', { context: shared }), /already in a run/);
    await first;
  });
});
