import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Conversation } from '../model/conversation.ts';

const day = 86_400_000;
const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
const monthName = (time: number, month: 'long' | 'short') =>
  new Date(time).toLocaleString('en-US', { month, timeZone: 'UTC' });
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** Dates spread over 1950-2049, every month and every day of a month among them. */
const dates = Array.from({ length: 120 }, (_, index) => Date.UTC(1950, 0, 1) + ((index * 7_919) % 36_500) * day);

/** The written forms of a date that name its day, month and year without doubt. */
function writtenForms(time: number): string[] {
  const [year, month, date] = iso(time).split('-') as [string, string, string];
  const d = Number(date);
  const [long, short] = [monthName(time, 'long'), monthName(time, 'short')];
  const forms = [
    `${long} ${d}, ${year}`,
    `${d} ${long} ${year}`,
    `${short} ${ordinal(d)} ${year}`,
    `the ${ordinal(d)} of ${long}, ${year}`,
    `${year}-${month}-${date}`,
  ];
  return d > 12 || d === Number(month)
    ? [...forms, `${month}/${date}/${year}`, `${date}/${month}/${year}`, `${date}.${month}.${year}`]
    : forms;
}

const stated = (text: string, value: string) => new Conversation([{ role: 'user', text }]).stated({ value }).answer;

describe('Conversation.stated with a date', () => {
  it('reads every written form of a date as stating it, and no other date', () => {
    assert.ok(new Set(dates.map((time) => new Date(time).getUTCDate())).size === 31);
    for (const time of dates) {
      for (const form of writtenForms(time)) {
        const text = `I would like to fly out on ${form}, please.`;
        assert.equal(stated(text, iso(time)), 'yes', text);
        assert.equal(stated(text, iso(time + day)), 'unsure', text);
        assert.equal(stated(text, iso(time - 365 * day)), 'unsure', text);
      }
    }
  });
  it('reads digits that are a date month-first and day-first as stating neither', () => {
    for (const time of dates) {
      const [year, month, date] = iso(time).split('-') as [string, string, string];
      if (Number(date) > 12 || date === month) continue;
      const text = `Departure ${month}/${date}/${year}.`;
      assert.equal(stated(text, iso(time)), 'unsure', text);
      assert.equal(stated(text, `${year}-${date}-${month}`), 'unsure', text);
    }
  });
  it('reads no date without its year or said relative to today, and only the user stating it', () => {
    for (const text of ['On April 12.', 'Tomorrow, please.', 'In 3 days.', 'Flight 2001 on the 12th.']) {
      assert.equal(stated(text, '2001-04-12'), 'unsure', text);
    }
    const agentOnly = new Conversation([{ role: 'assistant', text: 'You fly on April 12, 2001.', toolCalls: [] }]);
    assert.equal(agentOnly.stated({ value: '2001-04-12' }).answer, 'unsure');
    const fact = new Conversation([{ role: 'user', text: 'From 12 April 2001 to April 19, 2001.' }]).stated({
      value: '2001-04-19',
    });
    assert.deepEqual(fact, {
      answer: 'yes',
      evidence: [{ message: 0, words: ['April 19, 2001'] }],
      value: '2001-04-19',
    });
  });
});
