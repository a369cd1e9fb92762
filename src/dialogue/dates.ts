/**
 * The calendar dates a message states in writing, with the day, the month and the year: "April 12, 2001", "Apr 12th
 * 2001", "12 April 2001", "the 12th of April, 2001", "2001-04-12", and digits with the year last ("04/13/2001"). Digits
 * with the year last read month-first (US) and day-first; they state a date only where one reading is no date
 * ("04/13/2001", "13/04/2001": April 13) or both give the same ("04/04/2001"), so "04/12/2001" (April 12 or December
 * 4) states neither. A date without its year ("April 12") or relative to when it was said ("tomorrow") states none.
 * The words are English grammar (month names), never a domain's.
 */
import type { Message } from '../model/conversation.ts';

/** The months' names, each with its abbreviations, January first. */
const months = [
  'january|jan',
  'february|feb',
  'march|mar',
  'april|apr',
  'may',
  'june|jun',
  'july|jul',
  'august|aug',
  'september|sept|sep',
  'october|oct',
  'november|nov',
  'december|dec',
].map((names) => names.split('|'));

const month = String.raw`(${months.flat().join('|')})\.?`;
const day = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;
const year = String.raw`(\d{4})`;

/** A written form of a date, and the year, month and day it gives as numbers (one reading or several). */
interface Form {
  pattern: RegExp;
  readings: (groups: string[]) => [number, number, number][];
}

const monthNumber = (name: string) => months.findIndex((names) => names.includes(name.toLowerCase())) + 1;

const forms: Form[] = [
  {
    pattern: new RegExp(String.raw`\b${month}\s+${day},?\s+${year}\b`, 'giu'),
    readings: ([name, d, y]) => [[Number(y), monthNumber(name ?? ''), Number(d)]],
  },
  {
    pattern: new RegExp(String.raw`\b${day}\s+(?:of\s+)?${month},?\s+${year}\b`, 'giu'),
    readings: ([d, name, y]) => [[Number(y), monthNumber(name ?? ''), Number(d)]],
  },
  {
    pattern: new RegExp(String.raw`\b${year}[-/](\d{1,2})[-/](\d{1,2})\b`, 'gu'),
    readings: ([y, m, d]) => [[Number(y), Number(m), Number(d)]],
  },
  {
    pattern: new RegExp(String.raw`\b(\d{1,2})[/.-](\d{1,2})[/.-]${year}\b`, 'gu'),
    readings: ([first, second, y]) => [
      [Number(y), Number(first), Number(second)],
      [Number(y), Number(second), Number(first)],
    ],
  },
];

/** The ISO date of a year, month and day, or undefined when the calendar has no such day. */
function isoDate([y, m, d]: [number, number, number]): string | undefined {
  const time = new Date(Date.UTC(y, m - 1, d));
  if (time.getUTCFullYear() !== y || time.getUTCMonth() !== m - 1 || time.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Whether `value` is written as an ISO date (`YYYY-MM-DD`), the form a call passes a date in. */
export function isIsoDate(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/u.test(value) &&
    isoDate(value.split('-').map(Number) as [number, number, number]) !== undefined
  );
}

/** A date a message states: the words that state it, and the date as ISO (`YYYY-MM-DD`). */
export interface StatedDate {
  words: string;
  date: string;
}

const stated = new WeakMap<Message, readonly StatedDate[]>();

/** The dates `text` states in full, each with its words, where its readings settle on one date. */
function datesIn(text: string): StatedDate[] {
  const found: StatedDate[] = [];
  for (const { pattern, readings } of forms) {
    for (const match of text.matchAll(pattern)) {
      const dates = new Set(readings(match.slice(1)).flatMap((reading) => isoDate(reading) ?? []));
      const [date] = dates;
      if (dates.size === 1 && date !== undefined) found.push({ words: match[0], date });
    }
  }
  return found;
}

/**
 * The dates a user or assistant message states in full (see the module's note), each with the words that state it;
 * none for a tool result. Remembered per message.
 */
export function datesStated(message: Message): readonly StatedDate[] {
  if (message.role === 'tool' || !/\d/u.test(message.text)) return [];
  let dates = stated.get(message);
  if (dates === undefined) {
    dates = datesIn(message.text);
    stated.set(message, dates);
  }
  return dates;
}
