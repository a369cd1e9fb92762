/**
 * The reminder the retail policy asks for before the tools that can be called only once (exchange, modify items):
 * that the user confirm they have given all the items. Read from the agent's reminder and the user's answer to it.
 * Written in review (second review, from agents' runs): a reminder is often a statement ("please make sure you've
 * listed all the items"), not a question, and users answer it in their own words ("that's the only item").
 */
import type { Conversation, Fact } from 'agentguard';
import { afterLastChange } from './changes.ts';

/** How the agent reminds the user that the list must be complete, or that the action can be taken only once. */
export const reminder: RegExp =
  /\b(all (of )?the items|all items|all (that )?you(['’]d| would)? (like|want)|(the )?only (items?|ones?|changes?)|any other items?|other items|anything else (you want )?to (modify|exchange)|everything you want to (modify|exchange)|listed everything|provided all|told me all|(only|just) (be )?(requested |modified |exchanged |changed |called )?once|once per order|one time)\b/u;

/** How the user says the list is complete. */
const complete: RegExp =
  /\b(that['’]?s all|that is all|that['’]?s everything|that is everything|nothing else|no other items?|no more|(the )?only (items?|ones?|changes?|thing)|just (the|that|this|those)|only (the|that|this|those)|those are all|all of them|that['’]?s it)\b/u;

/** How the user says there is more to add, or that they are not done. */
const more: RegExp = /\b(not sure|let me think|another item|one more|something else|also want|i also|wait|not yet)\b/u;

/** The user's confirmation that they gave all the items, and the reminder it answers. */
export interface AllItemsConfirmation extends Fact {
  /** Index of the agent's reminder the user answered, or -1. */
  reminder: number;
}

/**
 * Whether the agent reminded the user that the list of items must be complete and the user confirmed it: the latest
 * assistant message naming the reminder (after the last change carried out, or naming `orderId`: one reminder may
 * cover several orders), answered by a user message that is a clear yes or says the list is complete, and adds
 * nothing. `no` without such a reminder; `unsure` when the user's answer neither confirms nor adds.
 *
 * @example
 * ```ts
 * const all = confirmedAllItems(context.conversation, args.order_id);
 * if (all.answer !== 'yes') return { message: `remind the user …: ${all.reason}` };
 * ```
 */
export function confirmedAllItems(conversation: Conversation, orderId: string): AllItemsConfirmation {
  const { messages } = conversation;
  const start = afterLastChange(conversation);
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const text = message.text.toLowerCase();
    const words = reminder.exec(text);
    if (words === null || (index < start && !text.includes(orderId.toLowerCase()))) continue;
    const answer = messages.findIndex((reply, at) => at > index && reply.role === 'user' && reply.text.trim() !== '');
    if (answer === -1) {
      return { answer: 'no', evidence: [], reminder: index, reason: 'the user has not answered the reminder yet' };
    }
    const said = messages[answer]?.role === 'user' ? (messages[answer]?.text ?? '').toLowerCase() : '';
    const evidence = [
      { message: answer, words: [] as string[] },
      { message: index, words: [words[0]] },
    ];
    const added = more.exec(said);
    if (added !== null) {
      evidence[0] = { message: answer, words: [added[0]] };
      return { answer: 'no', evidence, reminder: index, reason: 'the user has more to add' };
    }
    const done = complete.exec(said);
    if (done !== null || conversation.answerAt(answer)?.answer === 'yes') {
      evidence[0] = { message: answer, words: [done?.[0] ?? 'yes'] };
      return { answer: 'yes', evidence, reminder: index };
    }
    return {
      answer: 'unsure',
      evidence,
      reminder: index,
      reason: 'the user has not confirmed they gave all the items',
    };
  }
  return {
    answer: 'no',
    evidence: [],
    reminder: -1,
    reason: 'the agent did not remind the user to give all the items',
  };
}

/** How the user says an item stays as it is: "keep the water bottle", "no change to the keyboard". */
const kept =
  /\b(keep|keeping|leave|leaving|no change|not change|don['’]t change|do not change|unchanged|as is|as it is|stays?|remains?|without)\b/u;

/**
 * Whether a fact of what the user named (an item of the order) is a yes from message `start` on that asks to change
 * it: the clause naming it does not say it stays ("I'll keep the water bottle", "leave the espresso machine as is").
 *
 * @example
 * ```ts
 * const named = conversation.stated({ value: item.product_id, kind: 'item', records }, domain);
 * if (namedToChange(conversation, named, afterLastChange(conversation))) left.push(item);
 * ```
 */
export function namedToChange(conversation: Conversation, fact: Fact, start: number): boolean {
  if (fact.answer !== 'yes') return false;
  return fact.evidence.some((evidence) => {
    if (evidence.message < start) return false;
    const message = conversation.messages[evidence.message];
    if (message?.role !== 'user') return false;
    const clauses = message.text.toLowerCase().split(/[.,;:!?()—–]|\s-\s|\b(?:and|but)\b/u);
    const naming = clauses.filter((clause) => evidence.words.some((word) => clause.includes(word.toLowerCase())));
    return naming.length === 0 || naming.some((clause) => !kept.test(clause));
  });
}
