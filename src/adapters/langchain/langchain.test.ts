import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, type HITLRequest, type HITLResponse } from 'langchain';
import type { AskOutcome } from '../../audit/audit-record.ts';
import type { ToolCall } from '../../model/tool-call.ts';
import type { Verdict } from '../../model/verdict.ts';
import { GuardRuntime } from '../../runtime/guard-runtime.ts';
import { GuardDeniedError } from '../../runtime/guard-tool.ts';
import { airlinePack, cancellable, cancellationRequest, freshAirline, notCancellable } from '../airline-fixture.ts';
import { guardMiddleware, type LangChainGuardOptions } from './index.ts';
import { airlineTools, langChainMessages, ScriptedChatModel } from './test-doubles.ts';

/** The content of the tool message for that call id in what the model received on a call. */
function toolMessageSeen(model: ScriptedChatModel, call: number, callId: string): string {
  const message = model.received[call]?.find(
    (candidate) => ToolMessage.isInstance(candidate) && candidate.tool_call_id === callId,
  );
  return message?.text ?? '';
}

async function setUp(options: { ask?: string[]; shadow?: boolean; onDeny?: 'throw'; lookupsFromTools?: boolean } = {}) {
  const runtime = new GuardRuntime([await airlinePack({ ask: options.ask ?? [] })], {
    shadow: options.shadow ?? false,
  });
  const airline = await freshAirline();
  const verdicts: { verdict: Verdict; call: ToolCall; outcome?: AskOutcome }[] = [];
  const tools = airlineTools(airline, ['get_reservation_details', 'cancel_reservation']);
  const guardOptions: LangChainGuardOptions = {
    tools,
    now: () => airline.now,
    onVerdict: (verdict, call, outcome) => verdicts.push({ verdict, call, ...(outcome ? { outcome } : {}) }),
    ...(options.lookupsFromTools ? {} : { invoker: airline.invoker }),
    ...(options.onDeny ? { onDeny: options.onDeny } : {}),
  };
  const agentFor = (model: ScriptedChatModel) =>
    createAgent({
      model,
      tools,
      middleware: [guardMiddleware(runtime, guardOptions)],
      checkpointer: new MemorySaver(),
    });
  return { airline, verdicts, agentFor };
}

const cancel = (id: string, reservationId: string) => ({
  id,
  name: 'cancel_reservation',
  args: { reservation_id: reservationId },
});

const thread = (id: string) => ({ configurable: { thread_id: id } });

describe('agentguard/langchain', () => {
  it('keeps a denied write from the tool and hands the model the feedback as the tool message', async () => {
    const { airline, verdicts, agentFor } = await setUp();
    const model = new ScriptedChatModel([
      {
        calls: [{ id: 'c1', name: 'get_reservation_details', args: { reservation_id: notCancellable.reservationId } }],
      },
      { calls: [cancel('c2', notCancellable.reservationId)] },
      { text: 'I cannot cancel it.' },
    ]);
    const state = await agentFor(model).invoke(
      {
        messages: langChainMessages(
          cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
        ),
      },
      thread('deny'),
    );
    assert.equal(state.messages.at(-1)?.text, 'I cannot cancel it.');
    assert.deepEqual(
      airline.ran.map((entry) => entry.tool),
      ['get_reservation_details'],
    );
    assert.equal(await airline.status(notCancellable.reservationId), 'active');
    const feedback = toolMessageSeen(model, 2, 'c2');
    assert.match(feedback, /was blocked/);
    assert.match(feedback, /cancel\.eligibility/);
    assert.equal(verdicts.find((entry) => entry.call.id === 'c2')?.verdict.decision, 'deny');
  });

  it('runs an allowed write once with the checked arguments, answering lookups from its own tools', async () => {
    const { airline, verdicts, agentFor } = await setUp({ lookupsFromTools: true });
    const model = new ScriptedChatModel([{ calls: [cancel('c1', cancellable.reservationId)] }, { text: 'Cancelled.' }]);
    await agentFor(model).invoke(
      {
        messages: langChainMessages(
          cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: true }),
        ),
      },
      thread('allow'),
    );
    const cancels = airline.ran.filter((entry) => entry.tool === 'cancel_reservation');
    assert.deepEqual(cancels, [{ tool: 'cancel_reservation', args: { reservation_id: cancellable.reservationId } }]);
    // The guards read the reservation through the agent's own `get_reservation_details` tool.
    assert.ok(airline.ran.some((entry) => entry.tool === 'get_reservation_details'));
    assert.equal(await airline.status(cancellable.reservationId), 'cancelled');
    const checked = verdicts.filter((entry) => entry.call.name === 'cancel_reservation');
    assert.equal(checked.length, 1);
    assert.equal(checked[0]?.verdict.decision, 'allow');
    assert.deepEqual(checked[0]?.call.arguments, cancels[0]?.args);
  });

  for (const approved of [true, false]) {
    it(`interrupts an ask and ${approved ? 'runs the approved call' : 'does not run the rejected call'} on resume`, async () => {
      const { airline, verdicts, agentFor } = await setUp({ ask: ['cancel.eligibility'] });
      const model = new ScriptedChatModel([
        { calls: [cancel('c1', notCancellable.reservationId)] },
        { text: approved ? 'Cancelled.' : 'Not cancelled.' },
      ]);
      const agent = agentFor(model);
      const config = thread(`ask-${approved}`);
      const paused = await agent.invoke(
        {
          messages: langChainMessages(
            cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
          ),
        },
        config,
      );
      const request = paused.__interrupt__?.[0]?.value as HITLRequest | undefined;
      assert.equal(request?.actionRequests[0]?.name, 'cancel_reservation');
      assert.match(request?.actionRequests[0]?.description ?? '', /cancel\.eligibility/);
      assert.deepEqual(airline.ran, []);
      assert.equal(verdicts.length, 0, 'an ask is reported once answered');
      const resume: HITLResponse = {
        decisions: [approved ? { type: 'approve' } : { type: 'reject', message: 'The supervisor said no.' }],
      };
      const resumed = await agent.invoke(new Command({ resume }), config);
      assert.equal(resumed.messages.at(-1)?.text, approved ? 'Cancelled.' : 'Not cancelled.');
      assert.deepEqual(
        airline.ran,
        approved ? [{ tool: 'cancel_reservation', args: { reservation_id: notCancellable.reservationId } }] : [],
      );
      assert.equal(await airline.status(notCancellable.reservationId), approved ? 'cancelled' : 'active');
      if (!approved) assert.equal(toolMessageSeen(model, 1, 'c1'), 'The supervisor said no.');
      assert.deepEqual(
        verdicts.map(({ verdict, call, outcome }) => [call.id, verdict.decision, outcome]),
        approved
          ? [['c1', 'ask', { answer: 'approved', ran: true }]]
          : [['c1', 'ask', { answer: 'declined', ran: false }]],
      );
    });
  }

  it('checks the call a person edited, not the draft', async () => {
    const { airline, verdicts, agentFor } = await setUp({ ask: ['cancel.eligibility'] });
    const model = new ScriptedChatModel([{ calls: [cancel('c1', notCancellable.reservationId)] }, { text: 'Done.' }]);
    const agent = agentFor(model);
    const config = thread('edit');
    await agent.invoke(
      {
        messages: langChainMessages(
          cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
        ),
      },
      config,
    );
    // The reviewer changes the reservation to one of a user who never identified in this conversation.
    const resume: HITLResponse = {
      decisions: [
        {
          type: 'edit',
          editedAction: { name: 'cancel_reservation', args: { reservation_id: cancellable.reservationId } },
        },
      ],
    };
    await agent.invoke(new Command({ resume }), config);
    assert.deepEqual(airline.ran, []);
    const last = verdicts.at(-1);
    assert.deepEqual(last?.call.arguments, { reservation_id: cancellable.reservationId });
    assert.equal(last?.verdict.decision, 'deny');
    assert.match(toolMessageSeen(model, 1, 'c1'), /cancel\.user_id_obtained/);
  });

  it('in shadow mode runs everything and reports what the policies decided', async () => {
    const { airline, verdicts, agentFor } = await setUp({ shadow: true });
    await agentFor(
      new ScriptedChatModel([{ calls: [cancel('c1', notCancellable.reservationId)] }, { text: 'Done.' }]),
    ).invoke(
      {
        messages: langChainMessages(
          cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
        ),
      },
      thread('shadow'),
    );
    assert.deepEqual(
      airline.ran.map((entry) => entry.tool),
      ['cancel_reservation'],
    );
    assert.equal(verdicts.at(-1)?.verdict.decision, 'allow');
    assert.equal(verdicts.at(-1)?.verdict.evaluated, 'deny');
  });

  it('throws GuardDeniedError out of the agent when asked to', async () => {
    const { airline, agentFor } = await setUp({ onDeny: 'throw' });
    await assert.rejects(
      agentFor(new ScriptedChatModel([{ calls: [cancel('c1', cancellable.reservationId)] }, { text: 'Done.' }])).invoke(
        {
          messages: langChainMessages(
            cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: false }),
          ),
        },
        thread('throw'),
      ),
      // LangChain wraps what a middleware throws in a MiddlewareError whose cause is the original error.
      (error: unknown) =>
        error instanceof Error &&
        error.cause instanceof GuardDeniedError &&
        /cancel\.user_confirmation/.test(error.cause.message),
    );
    assert.deepEqual(airline.ran, []);
  });
});
