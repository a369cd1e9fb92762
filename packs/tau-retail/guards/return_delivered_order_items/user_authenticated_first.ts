/** `return_delivered_order_items.user_authenticated_first`: Before the call, the user's identity must have been authenticated in this conversation by locating their user id with find_user_id_by_email (from the email the user gave) or find_user_id_by_name_zip (from the name and zip code the user gave), and that lookup must have returned a user id. A user id merely stated by the user does not count. */
import type { PastToolCall, PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';

/** The lookups that authenticate a user by locating their user id. */
const authenticationLookups: ReadonlySet<string> = new Set(['find_user_id_by_email', 'find_user_id_by_name_zip']);

/** The user id an authentication lookup located, or undefined when it failed or returned nothing. */
function locatedUserId(past: PastToolCall): string | undefined {
  const result = past.result?.trim();
  if (result === undefined || result === '' || result.startsWith('Error')) return undefined;
  return result;
}

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  const attempts = context.conversation.toolCalls().filter((past) => authenticationLookups.has(past.call.name));
  for (const past of attempts) {
    if (locatedUserId(past) !== undefined) return undefined;
  }
  const tried = attempts.map((past) => ({
    tool: past.call.name,
    arguments: past.call.arguments,
    result: past.result ?? null,
  }));
  const message =
    attempts.length === 0
      ? `the user has not been authenticated: no find_user_id_by_email or find_user_id_by_name_zip lookup was made before returning items of order ${args.order_id}; a user id stated by the user or read from the order does not count. Ask for the user's email, or name and zip code, and locate their user id first`
      : `the user has not been authenticated: the authentication lookups made (${attempts.map((past) => past.call.name).join(', ')}) returned no user id before returning items of order ${args.order_id}. Locate the user's id by email, or by name and zip code, first`;
  return { message, facts: { order_id: args.order_id, authenticationLookups: tried } };
};
