import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Conversation, type Message } from '../model/conversation.ts';

const user = (text: string): Message => ({ role: 'user', text });
const agent = (text: string): Message => ({ role: 'assistant', text, toolCalls: [] });
/** A call of `name` and the tool's result. */
const called = (name: string, args: Record<string, unknown>, result: string, id = 'c'): Message[] => [
  { role: 'assistant', text: '', toolCalls: [{ id, name, arguments: args }] },
  { role: 'tool', callId: id, name, content: result },
];

const upgrade = { tool: 'update_reservation_flights', names: ['ZFA04Y'] };
const card = { reservation_id: 'ZFA04Y', payment_id: 'credit_card_1' };
const giftCard = { reservation_id: 'ZFA04Y', payment_id: 'gift_card_2' };
const paymentApart = (rejected: Record<string, unknown>) => rejected.reservation_id === 'ZFA04Y';
const dollars = { currency: ['$'], each: ['each'] };

describe('Conversation.agreed: corrections and the messages agreed on', () => {
  const rejectedThenCorrected = [
    agent('Shall I upgrade ZFA04Y to business for $300 on your credit card?'),
    user('Yes'),
    ...called('update_reservation_flights', card, 'Error: payment method not found'),
    agent('That card is not on file. Which payment method should I use?'),
    user('Use my gift card then.'),
  ];
  it('lets a corrected choice after the tool rejected the call stand with the yes before it, when `corrects` says it is that call', () => {
    const conversation = new Conversation(rejectedThenCorrected);
    assert.equal(conversation.agreed(upgrade).answer, 'unsure');
    const agreement = conversation.agreed(upgrade, { corrects: paymentApart });
    assert.equal(agreement.answer, 'yes');
    assert.deepEqual(
      [agreement.replies, agreement.proposals, agreement.earlierUser, agreement.earlierAgent],
      [[1, 5], [0, 4], [], []],
    );
    assert.equal(conversation.agreed(upgrade, { corrects: () => false }).answer, 'unsure');
  });
  it('does not take a refusal after the rejection for a corrected choice', () => {
    const conversation = new Conversation([...rejectedThenCorrected.slice(0, -1), user('No, forget it.')]);
    assert.equal(conversation.agreed(upgrade, { corrects: paymentApart }).answer, 'no');
  });
  it('lets a yes to a proposal that corrects a rejected call stand, however many messages it took, when `corrects` says so', () => {
    const paid = [
      agent('Shall I upgrade ZFA04Y to business for $300 on your credit card?'),
      user('Yes'),
      ...called('update_reservation_flights', card, 'Error: payment amount does not add up'),
      agent('The total is $350. Shall I charge $350 to your credit card instead?'),
      user('If it is more than $320 I would rather split it with my gift card.'),
      agent('Then $200 on the gift card and $150 on the credit card. Please confirm this payment.'),
      user('Yes, please.'),
    ];
    const conversation = new Conversation(paid);
    assert.equal(conversation.agreed(upgrade).answer, 'unsure');
    assert.equal(conversation.agreed(upgrade, { corrects: () => false }).answer, 'unsure');
    const amount = { amount: 350, parts: [200, 150], description: dollars };
    const agreement = conversation.agreed(upgrade, { corrects: paymentApart, amount });
    assert.deepEqual([agreement.answer, agreement.amount?.answer], ['yes', 'yes']);
    for (const [at, message] of [
      [5, user('No, forget the upgrade.')],
      [1, user('What would it cost?')],
      [6, agent('Then $200 on the gift card and $150 on the credit card.')],
    ] as const) {
      assert.equal(
        new Conversation(paid.with(at, message)).agreed(upgrade, { corrects: paymentApart }).answer,
        'unsure',
      );
    }
  });
  it("takes a yes to the agent's correction after a rejected call, though it neither asks nor names the call", () => {
    const conversation = new Conversation([
      agent('Shall I upgrade ZFA04Y to business for $300?'),
      user('Yes'),
      ...called('update_reservation_flights', card, 'Error: not enough seats'),
      agent('The cabin is full on one segment; I will use economy plus instead at $120.'),
      user('Sounds good.'),
    ]);
    assert.equal(conversation.agreed(upgrade).answer, 'yes');
  });
  it('reads what the user said only since the last successful change', () => {
    const conversation = new Conversation([
      user('Put my bags on my credit card.'),
      ...called('update_reservation_baggages', giftCard, '{"ok":true}', 'b'),
      user('Now upgrade ZFA04Y please.'),
      agent('Shall I upgrade ZFA04Y to business for $300?'),
      user('Yes'),
    ]);
    const since = conversation.agreed(upgrade, { changes: ['update_reservation_baggages', upgrade.tool] });
    assert.deepEqual([since.replies, since.proposals, since.earlierUser], [[5], [4], [3]]);
    assert.deepEqual(conversation.agreed(upgrade).earlierUser, [0, 3]);
  });
});
