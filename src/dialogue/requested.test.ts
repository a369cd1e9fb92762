import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Conversation, type Message } from '../model/conversation.ts';

const user = (text: string): Message => ({ role: 'user', text });
const agent = (text: string): Message => ({ role: 'assistant', text, toolCalls: [] });
const tool = (content: string): Message => ({ role: 'tool', callId: 'call_1', name: 'get_order', content });

/** The words a shop uses for what the user may ask for: the domain's, never the library's. */
const goodwill = ['refund', 'store credit', 'voucher', 'compensation'];
const read = (...messages: Message[]) => new Conversation(messages).requested(goodwill);

describe('Conversation.requested', () => {
  it('answers yes to the user asking before the agent raised it, with the words that asked', () => {
    assert.deepEqual(read(user('My order arrived broken.'), user("I'd like a refund, please.")), {
      answer: 'yes',
      evidence: [{ message: 1, words: ["i'd like a refund"] }],
    });
  });

  it('reads a complaint beside a request as the request', () => {
    assert.equal(read(user("The cover is scratched, I'm not happy and want a refund.")).answer, 'yes');
    assert.equal(read(user("I didn't get a refund for the torn copy, can you send one?")).answer, 'yes');
  });

  it('answers yes to a question about it', () => {
    assert.equal(read(user('The parcel was two weeks late. Is there any compensation for that?')).answer, 'yes');
  });

  it('answers no to a refusal of it, wherever it stands', () => {
    for (const text of [
      "I don't want a voucher, just send the right size.",
      'I don\u2019t want a voucher.',
      'No refund needed, just replace it.',
      "I'm not asking for compensation, I only want my parcel.",
      'A refund is not necessary.',
      'Store credit is fine, not a refund.',
      "Please don't issue a voucher, I'll skip the refund too.",
    ]) {
      const fact = read(user(text));
      assert.equal(fact.answer, 'no', text);
      assert.equal(fact.evidence[0]?.message, 0, text);
    }
  });

  it('lets the latest of a request and a refusal decide', () => {
    assert.equal(read(user('I want a refund.'), agent('Sure.'), user("Actually I don't want a refund.")).answer, 'no');
    assert.equal(read(user("I don't want a voucher."), agent('OK.'), user('I want a refund then.')).answer, 'yes');
  });

  it('answers no when the user only takes up the agent offer, with the offer as evidence', () => {
    const fact = read(
      user('The blender stopped working after a day.'),
      agent('I am sorry. Would you like store credit for the trouble?'),
      user('Sure'),
    );
    assert.deepEqual(fact, {
      answer: 'no',
      evidence: [{ message: 1, words: ['store credit'] }],
      reason: 'the agent raised store credit before the user asked for it',
    });
  });

  it('answers no when the user declines the agent offer, even after asking', () => {
    assert.deepEqual(read(user('Can I get a voucher?'), agent('Would you like a $20 voucher?'), user('No, thanks.')), {
      answer: 'no',
      evidence: [{ message: 2, words: ['no'] }],
      reason: 'the user refused refund',
    });
  });

  it('takes a question that makes the yes wait for no refusal', () => {
    const fact = read(
      user('Can I get a voucher?'),
      agent('Would you like a $20 voucher?'),
      user('Sounds good, but how many passengers were on it?'),
    );
    assert.equal(fact.answer, 'yes');
  });

  it('answers unsure when the user asks only after the agent raised it', () => {
    const fact = read(agent('We can offer store credit or an exchange.'), user('Then I want store credit.'));
    assert.equal(fact.answer, 'unsure');
    assert.deepEqual(
      fact.evidence.map((evidence) => evidence.message),
      [1, 0],
    );
  });

  it('answers no to a complaint that names nothing asked for, and reads no tool result', () => {
    const fact = read(tool('{"policy": "refund within 30 days"}'), user('This is unacceptable, it broke in a day.'));
    assert.deepEqual(fact, { answer: 'no', evidence: [], reason: 'no message asks for refund' });
  });

  it('answers unsure when the user names it first without asking, even if the agent offers it then', () => {
    const fact = read(user('A refund for the broken copy.'), agent('Would you like a refund?'), user('Yes'));
    assert.deepEqual(fact, {
      answer: 'unsure',
      evidence: [{ message: 0, words: ['refund'] }],
      reason: 'the user named refund without asking for it',
    });
  });

  it('keeps the user ask when the agent speaks of it afterwards', () => {
    assert.equal(read(user('Can I get a voucher?'), agent('Would you like a $20 voucher?'), user('Yes')).answer, 'yes');
  });
});
