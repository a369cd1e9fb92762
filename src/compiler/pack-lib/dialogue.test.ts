import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '../../model/conversation.ts';
import { guardContext } from '../../testing/index.ts';
import { decide, unconfirmed, valueChosen } from './dialogue.ts';

const assistant = (text: string, toolCalls: { name: string; arguments: Record<string, unknown> }[] = []): Message => ({
  role: 'assistant',
  text,
  toolCalls: toolCalls.map((call, index) => ({ id: `c${index}`, ...call })),
});
const user = (text: string): Message => ({ role: 'user', text });
const finding = (...conversation: Message[]) =>
  unconfirmed(
    guardContext({ conversation }),
    'update_reservation_flights',
    { action: /\bchange/, details: ['ZFA04Y', 'HAT170'] },
    (earlier) => earlier.reservation_id === 'ZFA04Y',
  );
const check = (...conversation: Message[]) => finding(...conversation)?.message;

describe('unconfirmed (the confirmation reading shipped into generated packs)', () => {
  it('accepts a yes to a request that names one detail, without every argument spelled out', () => {
    assert.equal(
      check(assistant('Shall I change your flights to HAT170 on May 20? Please confirm.'), user('Yes')),
      undefined,
    );
    assert.equal(
      check(assistant('Reservation ZFA04Y: new flight HAT170. OK to proceed?'), user('Go for it')),
      undefined,
    );
  });
  it('denies no yes and a yes taken back; asks about a yes to no request, about something else, or already used', () => {
    assert.match(check(assistant('Shall I change ZFA04Y?'), user('Let me think.')) ?? '', /did not agree/);
    assert.match(
      check(assistant('Shall I change ZFA04Y to HAT170?'), user('Yes. Actually no, wait.')) ?? '',
      /not explicitly confirmed.*decided by "yes", "actually no"/,
    );
    assert.match(
      check(assistant('Shall I change ZFA04Y to HAT170?'), user('Ｙｅｓ, but first tell me the fare difference.')) ??
        '',
      /"yes", "but first"/,
    );
    assert.match(check(assistant('I changed your seat.'), user('Yes')) ?? '', /does not answer a request/);
    assert.match(check(assistant('Shall I cancel reservation XYZ?'), user('Yes')) ?? '', /does not name this call/);
    assert.equal(check(assistant('Shall I change the date?'), user('Yes')), undefined, 'the action alone names it');
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
    // A refusal or no yes denies; a yes the reading cannot tie to this call asks the person.
    assert.equal(finding(assistant('Shall I change ZFA04Y?'), user('Let me think.'))?.ask, undefined);
    assert.equal(
      finding(assistant('Shall I cancel reservation XYZ?'), user('Yes'))?.ask,
      'Did the user explicitly confirm this action?',
    );
    assert.equal(finding(...used)?.ask, 'Did the user explicitly confirm this action?');
  });
});

describe('decide', () => {
  const need = { need: 'the user must name the payment method', question: 'Which method did the user choose?' };
  it('lets a yes go on, denies a no with what decided it, and asks on unsure', () => {
    assert.equal(decide({ answer: 'yes', evidence: [] }, need), undefined);
    const no = decide({ answer: 'no', evidence: [{ message: 3, words: ['credit card'] }], reason: 'another' }, need);
    assert.equal(no?.ask, undefined);
    assert.match(no?.message ?? '', /another \(decided by "credit card"\)/);
    assert.equal(decide({ answer: 'unsure', evidence: [] }, need)?.ask, 'Which method did the user choose?');
    assert.equal(decide({ answer: 'unsure', evidence: [] }, { ...need, missingDenies: true })?.ask, undefined);
  });
});

describe('unconfirmed with terms, and valueChosen', () => {
  const domain = {
    kinds: {
      payment: { key: 'id', classes: { field: 'kind', phrases: { voucher: ['voucher'], card: ['card'] } } },
    },
  };
  const records = [
    { id: 'voucher_1', kind: 'voucher' },
    { id: 'card_7', kind: 'card' },
  ];
  const paying = (paymentId: string) => ({ value: paymentId, kind: 'payment', records });
  const confirming = (paymentId: string, ...conversation: Message[]) =>
    unconfirmed(guardContext({ conversation }), 'place_order', { action: /\border/, details: ['A1'] }, () => true, {
      values: [paying(paymentId)],
      domain,
      amount: { amount: 1240, description: { currency: ['$'] } },
    });
  const withTerms = (paymentId: string, ...conversation: Message[]) => confirming(paymentId, ...conversation)?.message;
  it('denies a term the conversation contradicts, lets one it leaves unsaid pass, and asks about an amount untold', () => {
    const untold = confirming(
      'card_7',
      assistant('Shall I place order A1 with your card? Please confirm.'),
      user('Yes'),
    );
    assert.equal(untold?.ask, 'The call moves $1,240. Did the user agree to that amount?');
    assert.match(untold?.message ?? '', /not told the amount the call moves \(\$1,240\)/);
    assert.equal(withTerms('card_7', assistant('Order A1, $1,240, paid by card. Confirm?'), user('Yes')), undefined);
    assert.match(
      withTerms('card_7', assistant('Order A1, paid with your voucher. Confirm?'), user('Yes')) ?? '',
      /not what the user agreed to/,
    );
    assert.match(
      withTerms('card_7', assistant('Order A1 costs $25. Confirm?'), user('Yes')) ?? '',
      /not what the user agreed to/,
    );
  });
  it('takes a value as chosen when the user names it or says yes to a proposal that names it', () => {
    const chosen = (paymentId: string, ...conversation: Message[]) =>
      valueChosen(guardContext({ conversation }), { tool: 'place_order', names: ['A1'] }, paying(paymentId), domain)
        .answer;
    assert.equal(chosen('card_7', user('Use my card.')), 'yes');
    assert.equal(chosen('card_7', assistant('Order A1 paid with your card. Shall I go ahead?'), user('Yes')), 'yes');
    assert.equal(chosen('card_7', assistant('Order A1 paid with your voucher. Shall I go ahead?'), user('Yes')), 'no');
    assert.equal(chosen('card_7', assistant('Shall I place order A1?'), user('Yes')), 'unsure');
  });
});
