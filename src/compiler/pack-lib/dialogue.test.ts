import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '../../model/conversation.ts';
import { guardContext } from '../../testing/index.ts';
import { unconfirmed } from './dialogue.ts';

const assistant = (text: string, toolCalls: { name: string; arguments: Record<string, unknown> }[] = []): Message => ({
  role: 'assistant',
  text,
  toolCalls: toolCalls.map((call, index) => ({ id: `c${index}`, ...call })),
});
const user = (text: string): Message => ({ role: 'user', text });
const check = (...conversation: Message[]) =>
  unconfirmed(
    guardContext({ conversation }),
    'update_reservation_flights',
    { action: /\bchange/, details: ['ZFA04Y', 'HAT170'] },
    (earlier) => earlier.reservation_id === 'ZFA04Y',
  )?.message;

describe('unconfirmed (the confirmation reading shipped into generated packs)', () => {
  it('accepts a yes to a request that names the action or one detail, without every argument spelled out', () => {
    assert.equal(
      check(assistant('Shall I change your flights to HAT170 on May 20? Please confirm.'), user('Yes')),
      undefined,
    );
    assert.equal(
      check(assistant('Reservation ZFA04Y: new flight HAT170. OK to proceed?'), user('yes please')),
      undefined,
    );
  });
  it('refuses no yes, a yes to no request, a yes about something else, and a yes already used', () => {
    assert.match(check(assistant('Shall I change it?'), user('Let me think.')) ?? '', /not explicitly confirmed/);
    assert.match(
      check(assistant('Shall I change ZFA04Y to HAT170?'), user('Yes. Actually no, wait.')) ?? '',
      /not explicitly confirmed this action \(the user's last message reads as no: "yes", "actually no"\)/,
    );
    assert.match(
      check(assistant('Shall I change ZFA04Y to HAT170?'), user('Ｙｅｓ, but first tell me the fare difference.')) ??
        '',
      /reads as no: "yes", "but first"/,
    );
    assert.match(check(assistant('I changed your seat.'), user('Yes')) ?? '', /does not answer a request/);
    assert.match(check(assistant('Shall I cancel reservation XYZ?'), user('Yes')) ?? '', /not about this action/);
    const used = [
      assistant('Shall I change ZFA04Y to HAT170?'),
      user('Yes'),
      assistant('', [{ name: 'update_reservation_flights', arguments: { reservation_id: 'ZFA04Y' } }]),
      {
        role: 'tool',
        callId: 'c0',
        name: 'update_reservation_flights',
        content: '{"reservation_id": "ZFA04Y"}',
      } as Message,
    ];
    assert.match(check(...used) ?? '', /already used/);
  });
});
