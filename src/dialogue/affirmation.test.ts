import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asksForConfirmation, isAffirmative, isRefusal } from './affirmation.ts';

describe('isAffirmative', () => {
  const explicit = [
    'Yes, please proceed with the cancellation.',
    'yes',
    'Yes, I confirm. Please go ahead with this payment.',
    'Everything looks perfect! Please proceed with the booking.',
    'Oui, please proceed with the cancellation. Merci!',
    "That's correct. Please go ahead.",
    'Confirming to proceed with both actions.',
    'Hmm, maybe I mixed things up. I guess you are right. Yes, please cancel it.',
    'Sounds good.',
    'Please do.',
  ];
  const not = [
    "I guess that's fine",
    "I'll go with the first option, HAT136 and HAT039.",
    'No, please do not proceed.',
    'Wait, what would the total be?',
    'Could you please use my gift card instead?',
    'Can you proceed with the cheaper one?',
    "Don't cancel it yet.",
    'Sure, my user id is mia_li_3668.',
    '',
  ];
  for (const text of explicit) it(`reads "${text}" as yes`, () => assert.equal(isAffirmative(text), true));
  for (const text of not) it(`does not read "${text}" as yes`, () => assert.equal(isAffirmative(text), false));
});

describe('asksForConfirmation', () => {
  it('sees questions and requests to confirm', () => {
    assert.equal(asksForConfirmation('Shall I cancel ZFA04Y?'), true);
    assert.equal(asksForConfirmation('Please confirm the details above.'), true);
    assert.equal(asksForConfirmation('Your reservation is cancelled.'), false);
  });
});

describe('isRefusal', () => {
  it('sees a no or a hold, not a corrected choice', () => {
    assert.equal(isRefusal('No, please do not proceed.'), true);
    assert.equal(isRefusal("Wait, don't book it yet."), true);
    assert.equal(isRefusal("Let's use the gift card to cover the difference, please."), false);
  });
});
