import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateText, type ModelMessage, stepCountIs, streamText } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';
import type { AskOutcome } from '../../audit/audit-record.ts';
import type { ToolCall } from '../../model/tool-call.ts';
import type { Verdict } from '../../model/verdict.ts';
import { GuardRuntime } from '../../runtime/guard-runtime.ts';
import { GuardDeniedError } from '../../runtime/guard-tool.ts';
import { airlinePack, cancellable, cancellationRequest, freshAirline, notCancellable } from '../airline-fixture.ts';
import type { AdapterOptions } from '../guard-call.ts';
import { guardedToolApproval, guardTools } from './index.ts';
import { airlineTools, scriptedLanguageModel as model, modelMessages } from './test-doubles.ts';

/** The text of every tool result the model was shown in a call, by tool call id. */
function toolResultsSeen(mock: MockLanguageModelV4, call: number): Map<string, string> {
  const seen = new Map<string, string>();
  for (const message of mock.doGenerateCalls[call]?.prompt ?? mock.doStreamCalls[call]?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result' && part.output.type === 'text') seen.set(part.toolCallId, part.output.value);
    }
  }
  return seen;
}

async function setUp(options: { ask?: string[]; shadow?: boolean; lookupsFromTools?: boolean } = {}) {
  const runtime = new GuardRuntime([await airlinePack({ ask: options.ask ?? [] })], {
    shadow: options.shadow ?? false,
  });
  const airline = await freshAirline();
  const verdicts: { verdict: Verdict; call: ToolCall; outcome?: AskOutcome }[] = [];
  const adapterOptions: AdapterOptions = {
    now: () => airline.now,
    onVerdict: (verdict, call, outcome) => verdicts.push({ verdict, call, ...(outcome ? { outcome } : {}) }),
    ...(options.lookupsFromTools ? {} : { invoker: airline.invoker }),
  };
  return { runtime, airline, verdicts, adapterOptions };
}

const cancel = (id: string, reservationId: string) => ({
  id,
  name: 'cancel_reservation',
  args: { reservation_id: reservationId },
});

describe('agentguard/ai-sdk', () => {
  it('keeps a denied write from the tool and shows the model the feedback (generateText, three steps)', async () => {
    const { runtime, airline, verdicts, adapterOptions } = await setUp();
    const mock = model([
      {
        calls: [{ id: 'c1', name: 'get_reservation_details', args: { reservation_id: notCancellable.reservationId } }],
      },
      { calls: [cancel('c2', notCancellable.reservationId)] },
      { text: 'I cannot cancel it: it is not eligible.' },
    ]);
    const result = await generateText({
      model: mock,
      messages: modelMessages(
        cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
      ),
      tools: guardTools(
        runtime,
        airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
        adapterOptions,
      ),
      stopWhen: stepCountIs(5),
    });
    assert.deepEqual(
      airline.ran.map((run) => run.tool),
      ['get_reservation_details'],
    );
    assert.equal(await airline.status(notCancellable.reservationId), 'active');
    const feedback = toolResultsSeen(mock, 2).get('c2') ?? '';
    assert.match(feedback, /was blocked/);
    assert.match(feedback, /cancel\.eligibility/);
    assert.equal(verdicts.find((entry) => entry.call.id === 'c2')?.verdict.decision, 'deny');
    assert.equal(result.text, 'I cannot cancel it: it is not eligible.');
  });

  it('runs an allowed write once with the checked arguments (streamText)', async () => {
    const { runtime, airline, verdicts, adapterOptions } = await setUp();
    const result = streamText({
      model: model([{ calls: [cancel('c1', cancellable.reservationId)] }, { text: 'Cancelled.' }]),
      messages: modelMessages(cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: true })),
      tools: guardTools(
        runtime,
        airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
        adapterOptions,
      ),
      stopWhen: stepCountIs(5),
    });
    assert.equal(await result.text, 'Cancelled.');
    assert.deepEqual(airline.ran, [
      { tool: 'cancel_reservation', args: { reservation_id: cancellable.reservationId } },
    ]);
    assert.equal(await airline.status(cancellable.reservationId), 'cancelled');
    const checked = verdicts.filter((entry) => entry.call.name === 'cancel_reservation');
    assert.equal(checked.length, 1);
    assert.equal(checked[0]?.verdict.decision, 'allow');
    assert.deepEqual(checked[0]?.call.arguments, airline.ran[0]?.args);
  });

  for (const approved of [true, false]) {
    it(`pauses an ask for approval and ${approved ? 'runs the approved call' : 'does not run the declined call'}`, async () => {
      const { runtime, airline, verdicts, adapterOptions } = await setUp({ ask: ['cancel.eligibility'] });
      const tools = guardTools(
        runtime,
        airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
        adapterOptions,
      );
      const opening = modelMessages(
        cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
      );
      const paused = await generateText({
        model: model([{ calls: [cancel('c1', notCancellable.reservationId)] }]),
        messages: opening,
        tools,
        stopWhen: stepCountIs(5),
      });
      const request = paused.content.find((part) => part.type === 'tool-approval-request');
      assert.ok(request, 'expected an approval request');
      assert.deepEqual(airline.ran, []);
      assert.equal(verdicts.length, 0, 'an ask is reported once answered');
      const resumed = await generateText({
        model: model([{ text: approved ? 'Cancelled.' : 'Not cancelled.' }]),
        messages: [
          ...opening,
          ...paused.response.messages,
          { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved }] },
        ],
        tools,
        stopWhen: stepCountIs(5),
      });
      assert.equal(resumed.text, approved ? 'Cancelled.' : 'Not cancelled.');
      assert.deepEqual(
        airline.ran,
        approved ? [{ tool: 'cancel_reservation', args: { reservation_id: notCancellable.reservationId } }] : [],
      );
      assert.equal(await airline.status(notCancellable.reservationId), approved ? 'cancelled' : 'active');
      assert.deepEqual(
        verdicts.map(({ verdict, call, outcome }) => [call.id, verdict.decision, outcome]),
        approved ? [['c1', 'ask', { answer: 'approved', ran: true }]] : [],
      );
    });
  }

  it('gives the approval request the reason through guardedToolApproval, and runs the call once approved', async () => {
    const { runtime, airline, verdicts, adapterOptions } = await setUp({ ask: ['cancel.eligibility'] });
    const tools = guardTools(
      runtime,
      airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
      adapterOptions,
    );
    const opening = modelMessages(
      cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
    );
    const toolApproval = guardedToolApproval(tools);
    const paused = await generateText({
      model: model([{ calls: [cancel('c1', notCancellable.reservationId)] }]),
      messages: opening,
      tools,
      toolApproval,
      stopWhen: stepCountIs(5),
    });
    const request = paused.content.find((part) => part.type === 'tool-approval-request');
    assert.ok(request, 'expected an approval request');
    assert.match(request.reason ?? '', /needs a person's approval[\s\S]*cancel\.eligibility/);
    await generateText({
      model: model([{ text: 'Cancelled.' }]),
      messages: [
        ...opening,
        ...paused.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
      ],
      tools,
      toolApproval,
      stopWhen: stepCountIs(5),
    });
    assert.deepEqual(airline.ran, [
      { tool: 'cancel_reservation', args: { reservation_id: notCancellable.reservationId } },
    ]);
    assert.deepEqual(
      verdicts.map(({ verdict, call, outcome }) => [call.id, verdict.decision, outcome]),
      [['c1', 'ask', { answer: 'approved', ran: true }]],
    );
    assert.throws(() => guardedToolApproval({}), /returned by `guardTools`/);
  });

  it('does not let an approval the AI SDK settled on its own run an ask', async () => {
    const { runtime, airline, adapterOptions } = await setUp({ ask: ['cancel.eligibility'] });
    const mock = model([{ calls: [cancel('c1', notCancellable.reservationId)] }, { text: 'Not cancelled.' }]);
    await generateText({
      model: mock,
      messages: modelMessages(
        cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
      ),
      tools: guardTools(
        runtime,
        airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
        adapterOptions,
      ),
      toolApproval: { cancel_reservation: 'approved' },
      stopWhen: stepCountIs(5),
    });
    assert.deepEqual(airline.ran, []);
    assert.match(toolResultsSeen(mock, 1).get('c1') ?? '', /needs a person's approval/);
  });

  it('checks the call a person edited before approving it, not the draft', async () => {
    const { runtime, airline, verdicts, adapterOptions } = await setUp({ ask: ['cancel.eligibility'] });
    const tools = guardTools(
      runtime,
      airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
      adapterOptions,
    );
    const opening = modelMessages(
      cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
    );
    const paused = await generateText({
      model: model([{ calls: [cancel('c1', notCancellable.reservationId)] }]),
      messages: opening,
      tools,
    });
    const request = paused.content.find((part) => part.type === 'tool-approval-request');
    assert.ok(request);
    // The reviewer changes the reservation: it belongs to a user who never identified in this conversation.
    const edited = paused.response.messages.map((message): ModelMessage => {
      if (message.role !== 'assistant' || typeof message.content === 'string') return message;
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === 'tool-call' ? { ...part, input: { reservation_id: cancellable.reservationId } } : part,
        ),
      };
    });
    const resumed = await generateText({
      model: model([{ text: 'Done.' }]),
      messages: [
        ...opening,
        ...edited,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
      ],
      tools,
    });
    assert.equal(resumed.text, 'Done.');
    assert.deepEqual(airline.ran, []);
    const last = verdicts.at(-1);
    assert.deepEqual(last?.call.arguments, { reservation_id: cancellable.reservationId });
    assert.equal(last?.verdict.decision, 'deny');
    assert.ok(last?.verdict.violations.some((violation) => violation.policy === 'cancel.user_id_obtained'));
  });

  it('checks a call the AI SDK repaired on its repaired arguments', async () => {
    const { runtime, airline, verdicts, adapterOptions } = await setUp();
    await generateText({
      model: model([
        { calls: [{ id: 'c1', name: 'cancel_booking', args: { booking: cancellable.reservationId } }] },
        { text: 'Cancelled.' },
      ]),
      messages: modelMessages(cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: true })),
      tools: guardTools(
        runtime,
        airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
        adapterOptions,
      ),
      repairToolCall: async ({ toolCall }) => {
        const draft = JSON.parse(toolCall.input) as { booking: string };
        return {
          ...toolCall,
          toolName: 'cancel_reservation',
          input: JSON.stringify({ reservation_id: draft.booking }),
        };
      },
      stopWhen: stepCountIs(5),
    });
    assert.deepEqual(
      verdicts.map((entry) => [entry.call.name, entry.call.arguments]),
      [['cancel_reservation', { reservation_id: cancellable.reservationId }]],
    );
    assert.deepEqual(airline.ran, [
      { tool: 'cancel_reservation', args: { reservation_id: cancellable.reservationId } },
    ]);
  });

  it('in shadow mode runs everything and reports what the policies decided', async () => {
    const { runtime, airline, verdicts, adapterOptions } = await setUp({ shadow: true });
    await generateText({
      model: model([{ calls: [cancel('c1', notCancellable.reservationId)] }, { text: 'Cancelled.' }]),
      messages: modelMessages(
        cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
      ),
      tools: guardTools(
        runtime,
        airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
        adapterOptions,
      ),
      stopWhen: stepCountIs(5),
    });
    assert.deepEqual(
      airline.ran.map((run) => run.tool),
      ['cancel_reservation'],
    );
    assert.equal(verdicts[0]?.verdict.decision, 'allow');
    assert.equal(verdicts[0]?.verdict.evaluated, 'deny');
  });

  it('throws GuardDeniedError from the tool when asked to, and answers lookups from its own tools', async () => {
    const { runtime, airline, adapterOptions } = await setUp({ lookupsFromTools: true });
    const result = await generateText({
      model: model([{ calls: [cancel('c1', cancellable.reservationId)] }]),
      messages: modelMessages(cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: false })),
      tools: guardTools(runtime, airlineTools(airline, ['get_reservation_details', 'cancel_reservation']), {
        ...adapterOptions,
        onDeny: 'throw',
      }),
    });
    const error = result.content.find((part) => part.type === 'tool-error');
    assert.ok(error?.error instanceof GuardDeniedError);
    assert.match(error.error.message, /cancel\.user_confirmation/);
    // The guards read the reservation through the agent's own `get_reservation_details` tool (once when deciding
    // whether to ask, once before running); the cancellation never ran.
    assert.ok(airline.ran.length > 0);
    for (const run of airline.ran) {
      assert.deepEqual(run, { tool: 'get_reservation_details', args: { reservation_id: cancellable.reservationId } });
    }
  });
});
