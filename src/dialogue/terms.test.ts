import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Conversation, type Message } from '../model/conversation.ts';
import type { DomainDescription } from './domain-description.ts';

const user = (text: string): Message => ({ role: 'user', text });
const agent = (text: string): Message => ({ role: 'assistant', text, toolCalls: [] });

/** A domain description and an amount description as a pack ships them: every word is the pack's. */
const domain: DomainDescription = {
  kinds: {
    payment_method: {
      key: 'id',
      digits: ['last_four'],
      keyDigits: true,
      classes: { field: 'source', phrases: { credit_card: ['credit card', 'card ending'] } },
      roles: { original: ['original payment method'] },
    },
  },
};
const description = { currency: ['$'], each: ['each', 'per passenger'] };
const methods = [
  { id: 'gift_card_1234567', source: 'gift_card', amount: 40 },
  { id: 'gift_card_7654321', source: 'gift_card', amount: 150 },
  { id: 'credit_card_9', source: 'credit_card', last_four: '7803' },
];
const upgrade = { tool: 'update_reservation_flights', names: ['ZFA04Y'] };
const proposing = (proposal: string, reply = 'Yes, go ahead.') =>
  new Conversation([user('Please upgrade ZFA04Y.'), agent(proposal), user(reply)]);
const paying = (value: string, roles?: Record<string, string>) => ({
  values: [{ value, kind: 'payment_method', records: methods, ...(roles === undefined ? {} : { roles }) }],
  domain,
});

describe('Conversation.agreed: the amount agreed', () => {
  const amount = (conversation: Conversation, value: number, count?: number) =>
    conversation.agreed(upgrade, {
      amount: { amount: value, ...(count === undefined ? {} : { count }), description },
    }).amount;
  it('answers yes when the proposal states the amount, or an amount each times the count', () => {
    const conversation = proposing('Upgrading ZFA04Y costs $1,194. Shall I proceed?');
    assert.deepEqual(amount(conversation, 1194), { answer: 'yes', evidence: [{ message: 1, words: ['$1,194'] }] });
    assert.equal(amount(proposing('It is $597 per passenger for ZFA04Y. Proceed?'), 1194, 2)?.answer, 'yes');
  });
  it('answers no when the call moves more than every amount stated, unsure when less or nothing was stated', () => {
    assert.equal(amount(proposing('Upgrading ZFA04Y costs $597. Proceed?'), 1194, 2)?.answer, 'no');
    assert.equal(amount(proposing('Upgrading ZFA04Y costs $597. Proceed?'), 300)?.answer, 'unsure');
    assert.equal(amount(proposing('Shall I upgrade ZFA04Y?'), 300)?.reason, 'no amount was stated');
  });
  it('is not asked without a yes', () => {
    const conversation = proposing('Upgrading ZFA04Y costs $597. Proceed?', 'Let me think.');
    assert.equal(conversation.agreed(upgrade, { amount: { amount: 597, description } }).amount, undefined);
  });
});

describe('Conversation.agreed: the value agreed', () => {
  const value = (conversation: Conversation, request: ReturnType<typeof paying>) =>
    conversation.agreed(upgrade, request).values?.[0]?.answer;
  it('answers yes to a method named by its digits, by its class alone, or by a role it plays', () => {
    assert.equal(value(proposing('Charge the card ending in 7803 for ZFA04Y?'), paying('credit_card_9')), 'yes');
    assert.equal(value(proposing('Use your credit card for ZFA04Y?'), paying('credit_card_9')), 'yes');
    const original = proposing('Refund ZFA04Y to the original payment method?');
    assert.equal(value(original, paying('gift_card_1234567', { original: 'gift_card_1234567' })), 'yes');
  });
  it('answers no when another method is named, and unsure when none is', () => {
    const named = proposing('Pay for ZFA04Y with gift card 7654321?');
    assert.equal(value(named, paying('gift_card_1234567')), 'no');
    assert.equal(value(proposing('Shall I upgrade ZFA04Y?'), paying('gift_card_1234567')), 'unsure');
  });
  it('answers unsure, not no, to a class named where no record gives the value its class', () => {
    const byClass = proposing('Use your credit card for ZFA04Y?');
    const recordless = { values: [{ value: 'credit_card_9', kind: 'payment_method' }], domain };
    assert.equal(byClass.agreed(upgrade, recordless).values?.[0]?.answer, 'unsure');
    const unlisted = { values: [{ value: 'credit_card_5', kind: 'payment_method', records: methods }], domain };
    assert.equal(byClass.agreed(upgrade, unlisted).values?.[0]?.answer, 'unsure');
    assert.equal(value(byClass, paying('gift_card_1234567')), 'no');
  });
  it('reads the yes before the proposal, and a role no method plays in the call as naming nothing', () => {
    const reply = proposing('Pay for ZFA04Y with gift card 7654321?', 'Yes, with gift card 1234567 please.');
    assert.equal(value(reply, paying('gift_card_7654321')), 'no');
    assert.equal(value(reply, paying('gift_card_1234567')), 'yes');
    const roleless = proposing('Use the original payment method for ZFA04Y?');
    assert.equal(value(roleless, paying('gift_card_1234567')), 'unsure');
  });
  it("answers yes but never no from the agent's earlier messages, which also describe other records", () => {
    const earlier = (said: string) =>
      new Conversation([
        user('Please upgrade ZFA04Y.'),
        agent(said),
        user('Business, please.'),
        agent('Shall I upgrade ZFA04Y to business?'),
        user('Yes.'),
      ]);
    assert.equal(
      value(earlier('Your other trip was paid with gift card 7654321.'), paying('gift_card_1234567')),
      'unsure',
    );
    assert.equal(value(earlier('I can charge gift card 1234567.'), paying('gift_card_1234567')), 'yes');
  });
});

describe('Conversation.agreed: the items agreed', () => {
  const items = (proposal: string) =>
    proposing(proposal).agreed(upgrade, { items: { items: ['HAT286', 'HAT041'], changed: ['HAT286', 'HAT041'] } })
      .items;
  it('answers yes when the proposal lists every item the call changes, no when it lists only some', () => {
    assert.equal(items('Move ZFA04Y flights HAT286 and HAT041 to business?')?.answer, 'yes');
    const some = items('Upgrade HAT286 of ZFA04Y to business?');
    assert.equal(some?.answer, 'no');
    assert.match(some?.reason ?? '', /also changes HAT041/);
    assert.equal(items('Upgrade ZFA04Y to business?')?.answer, 'unsure');
  });
});
