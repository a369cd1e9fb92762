import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Conversation, type Message } from '../model/conversation.ts';
import type { DomainDescription } from './domain-description.ts';

const user = (text: string): Message => ({ role: 'user', text });
const agent = (text: string): Message => ({ role: 'assistant', text, toolCalls: [] });

/** A domain description as a pack ships it: every phrase is the pack's, none the library's. */
const domain: DomainDescription = {
  kinds: {
    airport: { key: 'iata', names: ['city'] },
    payment_method: {
      key: 'id',
      digits: ['last_four'],
      classes: { field: 'source', phrases: { gift_card: ['gift card'], credit_card: ['credit card', 'card on file'] } },
      orders: [{ field: 'amount', lowest: ['smallest balance'], highest: ['largest balance'] }],
      roles: { original: ['original payment method', 'same payment method'] },
    },
  },
};
const airports = [
  { iata: 'DTW', city: 'Detroit' },
  { iata: 'JFK', city: 'New York' },
];
const methods = [
  { id: 'gift_card_1', source: 'gift_card', amount: 40 },
  { id: 'gift_card_2', source: 'gift_card', amount: 150 },
  { id: 'credit_card_9', source: 'credit_card', last_four: '7803' },
];

describe('Conversation.agreed', () => {
  const cancel = { tool: 'cancel_reservation', names: ['ZFA04Y'] };
  it('answers yes to a clear yes to a proposal that names the call, with the evidence', () => {
    const conversation = new Conversation([agent('Shall I cancel reservation ZFA04Y?'), user('Sure')]);
    const { answer, evidence } = conversation.agreed(cancel);
    assert.deepEqual(
      { answer, evidence },
      {
        answer: 'yes',
        evidence: [
          { message: 1, words: ['sure'] },
          { message: 0, words: ['ZFA04Y'] },
        ],
      },
    );
  });
  it('answers no to a yes taken back or made to wait', () => {
    for (const reply of ['Yes. Actually no, wait.', 'Yes, but first tell me the refund amount.']) {
      const conversation = new Conversation([agent('Shall I cancel reservation ZFA04Y?'), user(reply)]);
      assert.equal(conversation.agreed(cancel).answer, 'no', reply);
    }
  });
  it('answers unsure to a yes to another proposal, and to a yes already used once', () => {
    const other = new Conversation([agent('Shall I cancel reservation AAAAAA?'), user('Yes')]);
    assert.equal(other.agreed(cancel).answer, 'unsure');
    const used = new Conversation([
      agent('Shall I cancel reservation ZFA04Y?'),
      user('Yes'),
      { role: 'assistant', text: '', toolCalls: [{ id: 'c', name: 'cancel_reservation', arguments: {} }] },
      { role: 'tool', callId: 'c', name: 'cancel_reservation', content: '{"status":"cancelled"}' },
    ]);
    assert.equal(used.agreed(cancel).answer, 'unsure');
  });
});

describe('Conversation.stated', () => {
  const pay = (text: string, value: string) =>
    new Conversation([agent('How would you like to pay?'), user(text)]).stated(
      { value, kind: 'payment_method', records: methods, roles: { original: 'credit_card_9' } },
      domain,
    );
  it('reads a city as its airport, through the domain description', () => {
    const conversation = new Conversation([user('I want to fly from Detroit to New York.')]);
    const fact = conversation.stated({ value: 'DTW', kind: 'airport', records: airports }, domain);
    assert.deepEqual(fact, { answer: 'yes', evidence: [{ message: 0, words: ['Detroit'] }], value: 'DTW' });
    assert.equal(new Conversation([user('From Detroit.')]).stated({ value: 'DTW' }).answer, 'unsure');
  });
  it('reads a method named by class, digits, order or role', () => {
    assert.equal(pay('Use my credit card.', 'credit_card_9').answer, 'yes');
    assert.equal(pay('The card ending in 7803.', 'credit_card_9').answer, 'yes');
    const numbered = { ...domain, kinds: { payment_method: { key: 'id', keyDigits: true } } };
    const said = new Conversation([user('Use gift card 2, please.')]);
    assert.equal(
      said.stated({ value: 'gift_card_2', kind: 'payment_method', records: methods }, numbered).answer,
      'unsure',
    );
    const spelled = new Conversation([user('Use gift card 150100, please.')]);
    const card = { id: 'gift_card_150100', source: 'gift_card' };
    assert.equal(spelled.stated({ value: card.id, kind: 'payment_method', records: [card] }, numbered).answer, 'yes');
    assert.equal(pay('My gift card with the smallest balance.', 'gift_card_1').answer, 'yes');
    assert.equal(pay('Refund to the original payment method.', 'credit_card_9').answer, 'yes');
  });
  it('names a class by its own value in words when the description gives no phrase for it', () => {
    const bare = { kinds: { payment_method: { key: 'id', classes: { field: 'source', phrases: {} } } } };
    const said = new Conversation([user('Put it on the certificate.')]);
    const records = [...methods, { id: 'certificate_5', source: 'certificate' }];
    assert.equal(said.stated({ value: 'certificate_5', kind: 'payment_method', records }, bare).answer, 'yes');
  });
  it('answers no when the user named another value, unsure when several fit', () => {
    assert.deepEqual(pay('Use my credit card.', 'gift_card_1').answer, 'no');
    assert.equal(pay('Use a gift card.', 'gift_card_1').answer, 'unsure');
    assert.equal(pay('Hello', 'gift_card_1').answer, 'unsure');
  });
  it('reads a value named only in a clause that refuses it as ruled out, and names nothing there', () => {
    const trips = [
      { type: 'one_way', name: 'one-way' },
      { type: 'round_trip', name: 'round trip' },
    ];
    const described = { kinds: { trip: { key: 'type', names: ['name'] } } };
    const said = new Conversation([user('Actually, I only need a one-way ticket, not round trip.')]);
    const trip = (value: string) => said.stated({ value, kind: 'trip', records: trips }, described);
    assert.equal(trip('one_way').answer, 'yes');
    assert.deepEqual(trip('round_trip'), {
      answer: 'no',
      evidence: [{ message: 0, words: ['not round trip'] }],
      reason: 'the user ruled out `round_trip`',
    });
    const byClass = {
      kinds: {
        trip: {
          key: 'type',
          classes: { field: 'type', phrases: { one_way: ['one-way'], round_trip: ['round trip'] } },
        },
      },
    };
    const classed = (value: string) => said.stated({ value, kind: 'trip', records: trips }, byClass);
    assert.equal(classed('one_way').answer, 'yes');
    assert.equal(classed('round_trip').answer, 'no');
    assert.equal(
      pay('Not the original payment method, my gift card with the smallest balance.', 'gift_card_1').answer,
      'yes',
    );
    const code = new Conversation([user('Not JFK, I meant Newark.'), user('Sorry, yes, JFK.')]);
    assert.equal(code.stated({ value: 'JFK' }).answer, 'yes');
    assert.equal(new Conversation([user('From JFK.'), user('Not JFK.')]).stated({ value: 'JFK' }).answer, 'no');
  });
  it('reads no other value the call uses alongside as against this one', () => {
    const trip = new Conversation([user('From JFK to the Motor City, please.')]);
    const destination = { value: 'DTW', kind: 'airport', records: airports };
    assert.equal(trip.stated(destination, domain).answer, 'no');
    assert.equal(trip.stated({ ...destination, alongside: ['JFK'] }, domain).answer, 'unsure');
    const other = new Conversation([user('To New York.')]);
    assert.equal(other.stated({ ...destination, alongside: ['JFK'] }, domain).answer, 'unsure');
    assert.equal(other.stated(destination, domain).answer, 'no');
  });
});

describe('Conversation.chose', () => {
  const insurance = {
    about: ['insurance'],
    options: { yes: ['with insurance', 'add insurance'], no: ['no insurance', 'without insurance'] },
    value: 'no',
    onYes: 'yes',
    onNo: 'no',
  };
  it('takes a plain answer to the question about the matter', () => {
    const conversation = new Conversation([
      agent('Would you like to add travel insurance for $30?'),
      user('No, thanks.'),
    ]);
    assert.equal(conversation.chose(insurance).answer, 'yes');
    const bought = new Conversation([agent('Would you like travel insurance?'), user('Yes please.')]);
    assert.equal(bought.chose(insurance).answer, 'no');
  });
  it('takes a yes to a summary as the option the summary names, not as buying', () => {
    const conversation = new Conversation([
      agent('Would you like travel insurance?'),
      user('No, thanks.'),
      agent('Booking: DTW to JFK, economy, no insurance. Shall I proceed?'),
      user('Yes, everything looks correct. Please go ahead with the booking.'),
    ]);
    assert.deepEqual(conversation.chose(insurance).value, 'no');
    assert.equal(new Conversation([user('Book it.')]).chose(insurance).answer, 'unsure');
  });
  it('reads no plain yes into the matter when the question asked is not about it', () => {
    const summary = (...before: Message[]) =>
      new Conversation([
        ...before,
        agent(
          'Here is the booking:\n- Guests: 2\n- Insurance: to be decided\n\nPlease confirm if everything is correct.',
        ),
        user('Yes, everything looks correct.'),
      ]).chose(insurance);
    assert.equal(summary().answer, 'unsure');
    const declined = summary(
      agent('Your total is $172. Also, would you like travel insurance for $30?'),
      user('No, thanks.'),
    );
    assert.equal(declined.answer, 'yes');
  });
  it('takes a yes to a summary that lists the matter as "Matter: value" as the option listed', () => {
    const trip = { about: ['trip'], options: { one_way: ['one-way'], round_trip: ['round trip', 'return'] } };
    const summary = new Conversation([
      agent(
        'Here is the booking:\n- **Trip Type:** One Way\n- **Travel Insurance:** No\n- Total: $172\n\nWould you like to proceed?',
      ),
      user('Yes, please proceed with the booking.'),
    ]);
    assert.deepEqual(
      { ...summary.chose(insurance), reason: undefined },
      {
        answer: 'yes',
        evidence: [
          { message: 1, words: ['yes', 'please proceed'] },
          { message: 0, words: ['no'] },
        ],
        value: 'no',
        reason: undefined,
      },
    );
    assert.equal(summary.chose({ ...trip, value: 'one_way' }).answer, 'yes');
    assert.equal(summary.chose({ ...trip, value: 'round_trip' }).value, 'one_way');
    const inline = new Conversation([agent('Flight HAT001, insurance: yes, cabin: economy. Proceed?'), user('Yes.')]);
    assert.equal(inline.chose(insurance).value, 'yes');
    const refused = new Conversation([agent('Insurance: No. Shall I book it?'), user('No, wait.')]);
    assert.equal(refused.chose(insurance).answer, 'unsure');
  });
  it('takes a clause of the user that negates the matter as the plain no', () => {
    const said = (text: string) => new Conversation([user(text)]).chose(insurance);
    assert.equal(said('Just me, and I do not need travel insurance, thanks.').value, 'no');
    assert.deepEqual(said("Yes, the details are right, but I don't want to include insurance.").evidence[0]?.words, [
      "don't want to include insurance",
    ]);
    assert.equal(said("I'll go ahead without the insurance.").value, 'no');
    assert.equal(said("I don't need bags. Insurance would be great.").answer, 'unsure');
    assert.equal(said("I'm not sure about insurance yet.").answer, 'unsure');
  });
  it('takes an option named in a clause that refuses it as ruled out, not chosen', () => {
    const card = 'The passenger details are Ana Ruiz, and the payment method will be my credit card ending in 7334.';
    const declined = new Conversation([user(`${card} I do not wish to add travel insurance.`)]);
    const travel = { ...insurance, options: { ...insurance.options, yes: ['add travel insurance', 'insurance'] } };
    assert.deepEqual(declined.chose({ ...travel, value: 'yes' }), {
      answer: 'no',
      evidence: [{ message: 0, words: ['do not wish to add travel insurance'] }],
      value: 'no',
      reason: 'the user chose `no`, not `yes`',
    });
    assert.equal(new Conversation([user('No insurance, please.')]).chose(travel).value, 'no');
    assert.equal(new Conversation([user("Please don't add travel insurance.")]).chose(travel).value, 'no');
    assert.equal(new Conversation([user("I wouldn't mind adding travel insurance.")]).chose(travel).answer, 'unsure');
    const trip = {
      about: ['trip', 'ticket'],
      options: { one_way: ['one way', 'one-way'], round_trip: ['round trip'] },
    };
    const oneWay = new Conversation([user('Actually, I only need a one-way ticket, not round trip.')]);
    assert.equal(oneWay.chose({ ...trip, value: 'one_way' }).answer, 'yes');
    const ruledOut = new Conversation([user('A round trip please.'), user('Not round trip, sorry.')]);
    assert.equal(ruledOut.chose({ ...trip, value: 'round_trip' }).answer, 'no');
    assert.equal(ruledOut.chose({ ...trip, value: 'one_way' }).answer, 'unsure');
  });
  it('takes no phrase that is the matter itself as naming an option', () => {
    const travel = { ...insurance, options: { ...insurance.options, yes: ['travel insurance', 'Insurance'] } };
    const aside = new Conversation([
      agent('Your reservation has no travel insurance, so it cannot be refunded. Anything else?'),
      user('I should get a refund regardless of the insurance.'),
    ]);
    assert.equal(aside.chose({ ...travel, value: 'no', about: ['travel insurance', 'insurance'] }).answer, 'unsure');
    const asked = new Conversation([agent('Would you like travel insurance?'), user('Yes, travel insurance please.')]);
    assert.equal(asked.chose({ ...travel, about: ['travel insurance', 'insurance'] }).value, 'yes');
  });
});

describe('Conversation.reasonGiven and askedAbout', () => {
  it('finds the reason and the question', () => {
    const conversation = new Conversation([
      agent('May I ask why you want to cancel?'),
      user('My plans changed unfortunately.'),
    ]);
    const reason = conversation.reasonGiven({ change_of_plan: ['plans changed'], health: ['sick'] });
    assert.deepEqual([reason.answer, reason.value], ['yes', 'change_of_plan']);
    assert.equal(conversation.askedAbout(['why', 'reason']).answer, 'yes');
    assert.equal(conversation.askedAbout(['insurance']).answer, 'no');
  });
  const reasons = { change_of_plan: ['plans changed'], health: ['sick'] };
  it('answers no when the user declines to give a reason, and yes when a later message gives one', () => {
    const declined = new Conversation([agent('Why do you want to cancel?'), user("I'd rather not say.")]);
    assert.deepEqual(
      [declined.reasonGiven(reasons).answer, declined.reasonGiven(reasons).evidence],
      ['no', [{ message: 1, words: ['rather not say'] }]],
    );
    const later = new Conversation([user('No specific reason.'), agent('Alright.'), user('Actually, I am sick.')]);
    assert.equal(later.reasonGiven(reasons).value, 'health');
  });
  it('finds a phrase only as whole words, whatever script the letters beside it are in', () => {
    const given = (text: string) => new Conversation([user(text)]).reasonGiven({ health: ['ill'] }).answer;
    assert.deepEqual(
      ['I will go', 'Détroill', '\u{10330}ill', 'ill_', 'I am ill.', '\u{1F600}ill', 'ill\u{1F600}'].map(given),
      ['unsure', 'unsure', 'unsure', 'unsure', 'yes', 'yes', 'yes'],
    );
  });
  it('takes an answer to the question for the reason as a reason given only when told what asks for it', () => {
    const conversation = new Conversation([
      agent('Could you tell me the reason for the cancellation?'),
      user('A family matter came up.'),
    ]);
    assert.equal(conversation.reasonGiven(reasons).answer, 'unsure');
    const given = conversation.reasonGiven(reasons, { asked: ['reason'] });
    assert.deepEqual([given.answer, given.value], ['yes', undefined]);
  });
  it('names an answer of no listed kind to the question for the reason `other` when told to, and keeps a decline', () => {
    const answered = (reply: string) =>
      new Conversation([agent('Could you tell me the reason for the cancellation?'), user(reply)]).reasonGiven(
        reasons,
        { asked: ['reason'], other: 'other' },
      );
    assert.deepEqual(answered('A family matter came up.'), {
      answer: 'yes',
      evidence: [
        { message: 1, words: [] },
        { message: 0, words: ['reason'] },
      ],
      value: 'other',
    });
    assert.equal(answered('My plans changed.').value, 'change_of_plan');
    assert.equal(answered("I'd rather not say.").answer, 'no');
    assert.equal(answered("I'd rather not say.").value, undefined);
  });
});
