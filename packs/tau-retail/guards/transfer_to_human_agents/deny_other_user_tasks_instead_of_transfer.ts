/** `transfer_to_human_agents.deny_other_user_tasks_instead_of_transfer`: If the request concerns another user than the authenticated one (another person's orders, profile or address), the agent must deny it rather than transfer it to a human agent: a transfer whose summary or triggering request is about a task for another user is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { TransferToHumanAgentsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

/**
 * Words by which a transfer summary (the call's argument) puts the task on someone other than the user; not "someone
 * else to help", the user asking for another agent.
 */
const otherPerson =
  /\b(friend|mother|mom|father|dad|parents?|wife|husband|spouse|brother|sister|sibling|son|daughter|colleague|co-?worker|partner|neighbou?r|roommate|cousin|uncle|aunt|grand(mother|father|ma|pa)|boss|another (user|person|customer|account)|other (user|person|customer|account)|someone else(?! (to|who can|that can) help))\b/i;

/** Order ids named in the summary. */
const orderIds = /#W\d+/g;

const isAuthenticationLookup = (name: string): boolean =>
  name === 'find_user_id_by_email' || name === 'find_user_id_by_name_zip';

export const check: PolicyCheck<TransferToHumanAgentsArgs> = async (args, context) => {
  const summary = args.summary;

  // The authenticated user: the user id returned by the latest successful authentication lookup.
  let userId: string | undefined;
  for (const past of context.conversation.toolCalls()) {
    if (!isAuthenticationLookup(past.call.name)) continue;
    const result = past.result?.trim();
    if (result !== undefined && result !== '' && !result.startsWith('Error')) userId = result;
  }

  // An order the transfer is about that belongs to another user.
  if (userId !== undefined) {
    for (const orderId of new Set(summary.match(orderIds) ?? [])) {
      let owner: string;
      try {
        owner = (await lookup(context, 'get_order_details', { order_id: orderId })).user_id;
      } catch {
        continue; // no such order: nothing to compare
      }
      if (owner !== userId) {
        return {
          message:
            `This transfer is about order ${orderId}, which belongs to user ${owner}, not to the authenticated user ` +
            `${userId}. Requests for tasks related to another user must be denied, not transferred to a human agent.`,
          facts: { summary, order_id: orderId, order_user_id: owner, authenticated_user_id: userId },
        };
      }
    }
  }

  // A summary that puts the task on another person.
  const person = otherPerson.exec(summary)?.[0];
  if (person !== undefined) {
    return {
      message:
        `The transfer summary speaks of a task for someone other than the authenticated user ("${person}"): ` +
        `"${summary}". Requests for tasks related to another user must be denied, not transferred to a human agent.`,
      facts: { summary, other_person: person, authenticated_user_id: userId ?? null },
      ask: `Is this transfer about a task for another person than the authenticated user${userId === undefined ? '' : ` ${userId}`}?`,
    };
  }
  return undefined;
};
