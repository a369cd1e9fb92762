import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateText, type ModelMessage, stepCountIs, streamText, type ToolSet } from 'ai';
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

/** Every tool result the model was shown in a call, by tool call id: its kind and its text (or reason). */
function toolResultsSeen(mock: MockLanguageModelV4, call: number): Map<string, { type: string; text: string }> {
  const seen = new Map<string, { type: string; text: string }>();
  for (const message of mock.doGenerateCalls[call]?.prompt ?? mock.doStreamCalls[call]?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const { output } = part;
      const text = output.type === 'execution-denied' ? (output.reason ?? '') : 'value' in output ? output.value : '';
      seen.set(part.toolCallId, { type: output.type, text: String(text) });
    }
  }
  return seen;
}

/** The airline's lookup and cancellation, the cancellation as a client-side tool (no `execute`). */
function clientSideCancel(airline: Awaited<ReturnType<typeof freshAirline>>): ToolSet {
  const tools = airlineTools(airline, ['get_reservation_details', 'cancel_reservation']);
  const { execute: _, ...cancelReservation } = tools.cancel_reservation as ToolSet[string];
  return { ...tools, cancel_reservation: cancelReservation as ToolSet[string] };
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
  it('keeps a denied write from the tool and reports it as a tool error with the feedback (generateText, three steps)', async () => {
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
    const seen = toolResultsSeen(mock, 2).get('c2');
    assert.equal(seen?.type, 'error-text');
    assert.match(seen?.text ?? '', /was blocked[\s\S]*cancel\.eligibility/);
    const error = result.steps.flatMap((step) => step.content).find((part) => part.type === 'tool-error');
    assert.ok(error?.error instanceof GuardDeniedError);
    assert.equal(verdicts.find((entry) => entry.call.id === 'c2')?.verdict.decision, 'deny');
    assert.equal(result.text, 'I cannot cancel it: it is not eligible.');
  });

  it('has the AI SDK refuse a denied call (execution-denied with the feedback) through guardedToolApproval', async () => {
    const { runtime, airline, verdicts, adapterOptions } = await setUp();
    const tools = guardTools(
      runtime,
      airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
      adapterOptions,
    );
    const mock = model([{ calls: [cancel('c1', notCancellable.reservationId)] }, { text: 'It is not eligible.' }]);
    const result = await generateText({
      model: mock,
      messages: modelMessages(
        cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
      ),
      tools,
      toolApproval: guardedToolApproval(tools),
      stopWhen: stepCountIs(5),
    });
    assert.deepEqual(airline.ran, []);
    const seen = toolResultsSeen(mock, 1).get('c1');
    assert.equal(seen?.type, 'execution-denied');
    assert.match(seen?.text ?? '', /was blocked[\s\S]*cancel\.eligibility/);
    const response = result.steps[0]?.content.find((part) => part.type === 'tool-approval-response');
    assert.equal(response?.approved, false);
    assert.match(response?.reason ?? '', /cancel\.eligibility/);
    assert.deepEqual(
      verdicts.map(({ verdict, call, outcome }) => [call.id, verdict.decision, outcome]),
      [['c1', 'deny', undefined]],
    );
    assert.equal(result.text, 'It is not eligible.');
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

  it('does not let an approval the AI SDK settled on its own run an ask, and reports it as a tool error', async () => {
    const { runtime, airline, adapterOptions } = await setUp({ ask: ['cancel.eligibility'] });
    const mock = model([{ calls: [cancel('c1', notCancellable.reservationId)] }, { text: 'Not cancelled.' }]);
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
      toolApproval: { cancel_reservation: 'approved' },
      stopWhen: stepCountIs(5),
    });
    assert.deepEqual(airline.ran, []);
    assert.deepEqual(toolResultsSeen(mock, 1).get('c1')?.type, 'error-text');
    assert.match(toolResultsSeen(mock, 1).get('c1')?.text ?? '', /needs a person's approval/);
    assert.ok(result.steps[0]?.content.some((part) => part.type === 'tool-error'));
  });

  const ownSettings = {
    'a status per tool': { cancel_reservation: 'approved', get_reservation_details: 'user-approval' },
    'a function': ({ toolCall }: { toolCall: { toolName: string } }) =>
      toolCall.toolName === 'cancel_reservation' ? 'approved' : 'user-approval',
  } as const;
  for (const [kind, own] of Object.entries(ownSettings)) {
    it(`sends an ask to a person with its reason whatever your own toolApproval says (${kind})`, async () => {
      const { runtime, airline, verdicts, adapterOptions } = await setUp({ ask: ['cancel.eligibility'] });
      const tools = guardTools(
        runtime,
        airlineTools(airline, ['get_reservation_details', 'cancel_reservation']),
        adapterOptions,
      );
      const result = await generateText({
        model: model([
          {
            calls: [
              cancel('c1', notCancellable.reservationId),
              { id: 'c2', name: 'get_reservation_details', args: { reservation_id: notCancellable.reservationId } },
            ],
          },
        ]),
        messages: modelMessages(
          cancellationRequest(notCancellable.reservationId, notCancellable.userId, { confirmed: true }),
        ),
        tools,
        toolApproval: guardedToolApproval(tools, own),
        stopWhen: stepCountIs(5),
      });
      const requests = result.content.filter((part) => part.type === 'tool-approval-request');
      assert.deepEqual(
        requests.map((request) => [request.toolCall.toolCallId, request.isAutomatic ?? false]),
        [
          ['c1', false],
          ['c2', false],
        ],
      );
      assert.match(requests[0]?.reason ?? '', /needs a person's approval[\s\S]*cancel\.eligibility/);
      assert.equal(requests[1]?.reason, undefined, 'your own setting decides an allowed call');
      assert.deepEqual(airline.ran, []);
      assert.deepEqual(
        verdicts.map(({ call }) => call.id),
        [],
      );
    });
  }

  it('guards a client-side tool before the application gets the call: refuses, asks with the reason, or hands it on', async () => {
    const { runtime, airline, verdicts, adapterOptions } = await setUp({ ask: ['cancel.eligibility'] });
    const tools = guardTools(runtime, clientSideCancel(airline), adapterOptions);
    const run = (reservation: { reservationId: string; userId: string }, confirmed: boolean) =>
      generateText({
        model: model([{ calls: [cancel('c1', reservation.reservationId)] }, { text: 'Done.' }]),
        messages: modelMessages(cancellationRequest(reservation.reservationId, reservation.userId, { confirmed })),
        tools,
        toolApproval: guardedToolApproval(tools),
        stopWhen: stepCountIs(5),
      });
    const denied = await run(cancellable, false);
    const response = denied.steps[0]?.content.find((part) => part.type === 'tool-approval-response');
    assert.equal(response?.approved, false);
    assert.match(response?.reason ?? '', /cancel\.user_confirmation/);
    const asked = await run(notCancellable, true);
    const request = asked.content.find((part) => part.type === 'tool-approval-request');
    assert.match(request?.reason ?? '', /needs a person's approval[\s\S]*cancel\.eligibility/);
    const allowed = await run(cancellable, true);
    assert.deepEqual(
      allowed.toolCalls.map((call) => [call.toolCallId, call.input]),
      [['c1', { reservation_id: cancellable.reservationId }]],
    );
    assert.ok(!allowed.content.some((part) => part.type.startsWith('tool-approval')));
    assert.deepEqual(
      verdicts.map(({ verdict }) => verdict.decision),
      ['deny', 'allow'],
    );
    assert.deepEqual(airline.ran, []);
  });

  it('fails the generation, never hands the call on, when a client-side tool is denied without guardedToolApproval', async () => {
    const { runtime, airline, adapterOptions } = await setUp();
    await assert.rejects(
      generateText({
        model: model([{ calls: [cancel('c1', cancellable.reservationId)] }, { text: 'Done.' }]),
        messages: modelMessages(
          cancellationRequest(cancellable.reservationId, cancellable.userId, { confirmed: false }),
        ),
        tools: guardTools(runtime, clientSideCancel(airline), adapterOptions),
        stopWhen: stepCountIs(5),
      }),
      /client-side tool `cancel_reservation` is denied[\s\S]*guardedToolApproval/,
    );
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
