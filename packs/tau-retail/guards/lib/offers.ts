/**
 * Options the agent offered and the user took: "The Google Assistant one in black is available: does it work for
 * you?" - "Yes, that works for me." Written in review (second review, from agents' runs): users take an offered option
 * in their own words, which need not name the option's value.
 */
import type { Conversation, Fact } from 'agentguard';

/**
 * Whether the user took an option the agent offered: an assistant message that asks and names `value` (or the new
 * item's id), answered by the user's clear yes, before the listing of the call the user's last yes answers. A yes to
 * that listing alone does not count: an option the agent picks and lists is not one the user asked for.
 *
 * @example
 * ```ts
 * if (tookOffer(context.conversation, 'exchange_delivered_order_items', 'Google Assistant', newItemId).answer === 'yes') continue;
 * ```
 */
export function tookOffer(conversation: Conversation, tool: string, value: string, itemId: string): Fact {
  const names = [value.toLowerCase(), itemId];
  const listing = conversation.agreed({ tool, names: [itemId] }).proposals[0] ?? conversation.messages.length;
  for (let index = listing - 1; index >= 0; index--) {
    const message = conversation.messages[index];
    if (message?.role !== 'assistant' || !conversation.asksAt(index)) continue;
    const text = message.text.toLowerCase();
    const words = names.filter((name) => text.includes(name));
    if (words.length === 0) continue;
    const reply = conversation.messages.findIndex(
      (later, at) => at > index && at < listing && later.role === 'user' && later.text.trim() !== '',
    );
    if (reply !== -1 && conversation.answerAt(reply)?.answer === 'yes') {
      return {
        answer: 'yes',
        evidence: [
          { message: reply, words: conversation.answerAt(reply)?.words ?? [] },
          { message: index, words },
        ],
      };
    }
  }
  return { answer: 'unsure', evidence: [], reason: `the user did not take an offer of \`${value}\`` };
}
