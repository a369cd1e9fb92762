import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { type Answer, asksForConfirmation, isAffirmative, readReply } from './affirmation.ts';

/** How far toward allow an answer stands: a guard acts only on a yes. */
const rank: Record<Answer, number> = { no: 0, unsure: 1, yes: 2 };

describe('readReply', () => {
  it('reads the yeses people say as yes', () => {
    for (const text of ['Sure', 'Of course', 'Go for it', 'Do it', 'alright', 'sounds good', 'please proceed']) {
      assert.equal(readReply(text).answer, 'yes', text);
    }
    assert.deepEqual(readReply('Yes, please proceed.'), { answer: 'yes', words: ['yes', 'please proceed'] });
  });
  it('reads a yes taken back or made to wait as no, with the words that undid it', () => {
    assert.deepEqual(readReply('Yes. Actually no, wait.'), { answer: 'no', words: ['yes', 'actually no'] });
    assert.deepEqual(readReply('Yes, but first tell me the refund amount.'), {
      answer: 'no',
      words: ['yes', 'but first'],
    });
  });
  it('reads a refusal hidden by invisible characters as the refusal it shows', () => {
    const refusal = "Change of plan. Please don't go ahead with the cancellation.";
    for (const text of [refusal, refusal.replace("don't", 'd\u200bon\u2019t'), 'Please do n\u200bot go ahead.']) {
      assert.equal(readReply(text).answer, 'no', text);
    }
  });
  it('answers unsure for a hedge, a choice, and a "sure" that answers another question', () => {
    for (const text of ["I guess that's fine", "I'll go with the first option.", 'Sure, my user id is mia_li_3668.']) {
      assert.equal(readReply(text).answer, 'unsure', text);
    }
    assert.equal(readReply('').answer, 'unsure');
    assert.equal(readReply('No problem, go ahead.').answer, 'yes');
    assert.equal(readReply("If the cost is above $200, I won't be able to proceed.").answer, 'no');
    assert.equal(readReply('Great, thank you! Before we finish, could you add a bag?').answer, 'unsure');
  });
});

describe('readReply never moves toward allow', () => {
  const noes = ["Please don't go ahead.", 'No, do not cancel it.', 'Not yet.', 'Hold on.', 'Never mind.'];
  const yeses = ['Yes.', 'Sure.', 'Of course.', 'Go for it.', 'Do it.', 'Alright.', 'Sounds good.', 'Please proceed.'];
  const retractions = ['Actually no.', 'Wait.', 'Hold on.', 'Never mind.', 'On second thought, no.', 'Cancel that.'];
  const conditions = [
    'But first tell me the refund amount.',
    'Only if it is under $500.',
    'As long as it goes to my card.',
    'After you tell me the total.',
    'But how much is the fee?',
  ];
  it('for a zero-width character at every position of a no', () => {
    for (const text of noes) {
      for (const mark of ['\u200b', '\u200d', '\u2060', '\ufeff', '\u00ad']) {
        for (let at = 0; at <= text.length; at++) {
          const variant = `${text.slice(0, at)}${mark}${text.slice(at)}`;
          assert.equal(readReply(variant).answer, 'no', JSON.stringify(variant));
        }
      }
    }
  });
  it('for fullwidth letters, curly quotes and odd spaces', () => {
    const fullwidth = (text: string) =>
      text.replace(/[!-~]/g, (char) => String.fromCodePoint((char.codePointAt(0) as number) + 0xfee0));
    for (const text of [...noes, ...yeses]) {
      const expected = readReply(text).answer;
      for (const variant of [fullwidth(text), text.replaceAll("'", '\u2019'), text.replaceAll(' ', '\u00a0\u3000')]) {
        assert.ok(rank[readReply(variant).answer] <= rank[expected], JSON.stringify(variant));
      }
    }
  });
  it('for each retraction and condition after each yes', () => {
    for (const yes of yeses) {
      assert.equal(readReply(yes).answer, 'yes', yes);
      for (const after of [...retractions, ...conditions]) {
        for (const text of [`${yes} ${after}`, `${yes.replace(/\.$/, ',')} ${after.toLowerCase()}`]) {
          assert.notEqual(readReply(text).answer, 'yes', text);
        }
      }
    }
  });
});

interface Labelled {
  text: string;
  label: Answer;
  /** `recorded`: the sample the lexicon was written against; `held-out`: labelled before it was read by it. */
  source: 'recorded' | 'held-out' | 'written';
}

describe('readReply on labelled answers to confirmation requests', () => {
  const labelled = JSON.parse(readFileSync(new URL('./fixtures/replies.json', import.meta.url), 'utf8')) as Labelled[];
  const score = (items: readonly Labelled[], answer: Answer) => {
    const read = items.map((item) => readReply(item.text).answer);
    const truePositives = items.filter((item, index) => item.label === answer && read[index] === answer).length;
    return {
      precision: truePositives / read.filter((value) => value === answer).length,
      recall: truePositives / items.filter((item) => item.label === answer).length,
      unsure: read.filter((value) => value === 'unsure').length / items.length,
    };
  };
  it('never reads a labelled no as yes', () => {
    for (const item of labelled.filter((candidate) => candidate.label === 'no')) {
      assert.notEqual(readReply(item.text).answer, 'yes', item.text);
    }
  });
  it('finds the yeses of the recorded runs with few misses', () => {
    const recorded = labelled.filter((item) => item.source !== 'written');
    const yes = score(recorded, 'yes');
    assert.ok(yes.precision >= 0.97 && yes.recall >= 0.95, JSON.stringify(yes));
    assert.equal(score(recorded, 'no').precision, 1);
  });
  it('reads every written case as labelled', () => {
    for (const item of labelled.filter((candidate) => candidate.source === 'written')) {
      assert.equal(readReply(item.text).answer, item.label, item.text);
    }
  });
});

describe('isAffirmative', () => {
  it('is true for a clear yes only', () => {
    assert.equal(isAffirmative('Yes, I confirm. Please go ahead with this payment.'), true);
    assert.equal(isAffirmative('Hmm, maybe I mixed things up. I guess you are right. Yes, please cancel it.'), true);
    assert.equal(isAffirmative('Can you proceed with the cheaper one?'), false);
    assert.equal(isAffirmative('Yes. Actually no, wait.'), false);
  });
});

describe('asksForConfirmation', () => {
  it('sees questions and requests to confirm', () => {
    assert.equal(asksForConfirmation('Shall I cancel ZFA04Y?'), true);
    assert.equal(asksForConfirmation('Please confirm the details above.'), true);
    assert.equal(asksForConfirmation('Your reservation is cancelled.'), false);
  });
});
