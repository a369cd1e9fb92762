import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../errors.ts';
import { Conversation, type Message } from './conversation.ts';
import { fromOpenAIChat } from './openai-chat.ts';

const call = (id: string, name: string) => ({ id, name, arguments: {} });

describe('Conversation', () => {
  it('pairs tool calls with their results even when call ids repeat', () => {
    const messages: Message[] = [
      { role: 'assistant', text: '', toolCalls: [call('same', 'a')] },
      { role: 'tool', callId: 'same', name: 'a', content: 'first' },
      { role: 'assistant', text: '', toolCalls: [call('same', 'b')] },
      { role: 'tool', callId: 'same', name: 'b', content: 'second' },
      { role: 'assistant', text: '', toolCalls: [call('x', 'c'), call('y', 'd')] },
      { role: 'tool', callId: 'y', name: 'd', content: 'for y' },
      { role: 'tool', callId: 'x', name: 'c', content: 'for x' },
    ];
    const calls = new Conversation(messages).toolCalls();
    assert.deepEqual(
      calls.map((past) => [past.call.name, past.result, past.messageIndex, past.callIndex]),
      [
        ['a', 'first', 0, 0],
        ['b', 'second', 2, 0],
        ['c', 'for x', 4, 0],
        ['d', 'for y', 4, 1],
      ],
    );
  });
  it('finds the confirmation, the proposal it answers, and the calls made since', () => {
    const conversation = new Conversation([
      { role: 'user', text: 'Cancel ZFA04Y.' },
      { role: 'assistant', text: 'Cancel ZFA04Y, refund $300? Please confirm.', toolCalls: [] },
      { role: 'user', text: 'Yes.' },
      { role: 'assistant', text: '', toolCalls: [call('1', 'get_reservation_details')] },
      { role: 'tool', callId: '1', name: 'get_reservation_details', content: '{}' },
    ]);
    const confirmation = conversation.confirmation();
    assert.equal(confirmation?.proposal, 'Cancel ZFA04Y, refund $300? Please confirm.');
    assert.equal(confirmation?.proposalAsks, true);
    assert.deepEqual(
      confirmation?.callsSince.map((past) => past.call.name),
      ['get_reservation_details'],
    );
    assert.equal(conversation.before(2).confirmation(), undefined);
  });
});

describe('fromOpenAIChat', () => {
  it('types messages and names tool results after their calls', () => {
    const conversation = fromOpenAIChat(
      [
        { role: 'system', content: 'policy' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'think', arguments: '{"thought":"x"}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: '' },
      ],
      'chat.json',
    );
    assert.deepEqual(conversation.messages, [
      { role: 'system', text: 'policy' },
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'c', name: 'think', arguments: { thought: 'x' } }] },
      { role: 'tool', callId: 'c', name: 'think', content: '' },
    ]);
  });
  it('names the file and path of a bad message', () => {
    assert.throws(
      () => fromOpenAIChat([{ role: 'user', content: 'ok' }, { role: 'robot' }], 'chat.json'),
      (error: unknown) =>
        error instanceof InputError && /chat\.json/.test(error.message) && error.issues[0]?.location === '$[1].role',
    );
  });
  it('names the place of arguments that are not a JSON object', () => {
    assert.throws(
      () =>
        fromOpenAIChat(
          [{ role: 'assistant', content: '', tool_calls: [{ id: 'c', function: { name: 'x', arguments: '[1' } }] }],
          'run.json',
          '$[4].traj',
        ),
      (error: unknown) =>
        error instanceof InputError && error.issues[0]?.location === '$[4].traj[0].tool_calls[0].function.arguments',
    );
  });
});

describe('reading answers and requests by position', () => {
  const conversation = new Conversation([
    { role: 'assistant', text: 'Upgrade ABC123 to business for $300? Please confirm.', toolCalls: [] },
    { role: 'user', text: 'Yes, go ahead.' },
    { role: 'assistant', text: 'The gift card balance is not enough.', toolCalls: [] },
    { role: 'user', text: 'Use my Visa ending in 1234 instead.' },
    { role: 'user', text: 'No, wait.' },
  ]);
  it('tells a yes, a refusal and another answer apart, and only for user messages', () => {
    assert.deepEqual(
      [1, 3, 4, 0].map((index) => conversation.answerAt(index)?.answer),
      ['yes', 'unsure', 'no', undefined],
    );
    assert.deepEqual(conversation.answerAt(4)?.words, ['no']);
  });
  it('sees which assistant message asks the user to confirm', () => {
    assert.deepEqual(
      [0, 2, 1].map((index) => conversation.asksAt(index)),
      [true, false, false],
    );
  });
});

describe('message text', () => {
  it('is kept in canonical form for user, assistant and system messages, and as it came for tool results', () => {
    const conversation = new Conversation([
      { role: 'system', text: ' Be\u00a0brief. ' },
      { role: 'assistant', text: 'Cancel ZFA04Y?\u200b', toolCalls: [call('1', 'x')] },
      { role: 'tool', callId: '1', name: 'x', content: ' \u200b{} ' },
      { role: 'user', text: 'Please d\u200bon\u2019t go ahead.' },
    ]);
    assert.deepEqual(
      conversation.messages.map((message) => ('text' in message ? message.text : message.content)),
      ['Be brief.', 'Cancel ZFA04Y?', ' \u200b{} ', "Please don't go ahead."],
    );
    assert.equal(conversation.answerAt(3)?.answer, 'no');
    assert.equal(conversation.messages[1]?.role === 'assistant' && conversation.messages[1].toolCalls.length, 1);
  });
  it('reads a message again when its text changed since a conversation was built from it', () => {
    const reply: Message = { role: 'user', text: 'Yes, go ahead.' };
    assert.equal(new Conversation([reply]).answerAt(0)?.answer, 'yes');
    (reply as { text: string }).text = 'Please d\u200bon\u2019t go ahead.';
    assert.equal(new Conversation([reply]).answerAt(0)?.answer, 'no');
  });
});

describe('before', () => {
  it('pairs the earlier tool calls with their results as the whole conversation does', () => {
    const messages: Message[] = [
      { role: 'user', text: 'Cancel ZFA04Y.' },
      { role: 'assistant', text: '', toolCalls: [call('1', 'get_reservation_details')] },
      { role: 'tool', callId: '1', name: 'get_reservation_details', content: '{}' },
      { role: 'assistant', text: '', toolCalls: [call('2', 'cancel_reservation')] },
      { role: 'tool', callId: '2', name: 'cancel_reservation', content: 'done' },
    ];
    const whole = new Conversation(messages);
    whole.toolCalls();
    for (const index of [0, 2, 3, 4, 5]) {
      assert.deepEqual(
        whole.before(index).toolCalls(),
        new Conversation(messages.slice(0, index)).toolCalls(),
        `${index}`,
      );
    }
  });
});

describe('readEach', () => {
  it('reads each message once for a conversation and the conversations before it, each seeing its own messages', () => {
    const messages: Message[] = [
      { role: 'user', text: 'Cancel ZFA04Y.' },
      { role: 'assistant', text: 'Shall I cancel ZFA04Y?', toolCalls: [] },
      { role: 'user', text: 'Yes.' },
    ];
    const read: Message[] = [];
    const upper = (message: Message) => {
      read.push(message);
      return message.role === 'tool' ? '' : message.text.toUpperCase();
    };
    const whole = new Conversation(messages);
    const first = whole.before(1);
    assert.deepEqual(first.readEach(upper), ['CANCEL ZFA04Y.']);
    assert.deepEqual(whole.readEach(upper), ['CANCEL ZFA04Y.', 'SHALL I CANCEL ZFA04Y?', 'YES.']);
    assert.deepEqual(whole.before(2).readEach(upper), ['CANCEL ZFA04Y.', 'SHALL I CANCEL ZFA04Y?']);
    assert.deepEqual(first.readEach(upper), ['CANCEL ZFA04Y.']);
    assert.deepEqual(read, messages);
  });
  it('keeps every reader apart when several take turns on one conversation', () => {
    const conversation = new Conversation([
      { role: 'user', text: 'Cancel ZFA04Y.' },
      { role: 'assistant', text: 'Shall I?', toolCalls: [] },
    ]).before(2);
    const calls = { length: 0, role: 0 };
    const length = (message: Message) => {
      calls.length++;
      return message.role === 'tool' ? 0 : message.text.length;
    };
    const role = (message: Message) => {
      calls.role++;
      return message.role;
    };
    for (let turn = 0; turn < 3; turn++) {
      assert.deepEqual(conversation.readEach(length), [14, 8]);
      assert.deepEqual(conversation.readEach(role), ['user', 'assistant']);
    }
    assert.deepEqual(calls, { length: 2, role: 2 });
  });
});
