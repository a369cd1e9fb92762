/** `exchange_delivered_order_items.user_authenticated_first`: Before the call, the user's identity must have been authenticated in this conversation by locating their user id with find_user_id_by_email (email) or find_user_id_by_name_zip (first name, last name and zip code), even if the user already stated a user id. If no such successful lookup happened earlier in the conversation, the call is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';
import { authenticationAttempts, locatedUserId } from '../lib/authentication.ts';

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  const attempts = authenticationAttempts(context);
  if (attempts.some((past) => locatedUserId(past) !== undefined)) return undefined;
  const tried = attempts.map((past) => ({
    tool: past.call.name,
    arguments: past.call.arguments,
    result: past.result ?? null,
  }));
  const message =
    attempts.length === 0
      ? `the user has not been authenticated: no find_user_id_by_email or find_user_id_by_name_zip lookup was made before exchanging items of order ${args.order_id}; a user id stated by the user does not count. Ask for the user's email, or name and zip code, and locate their user id first`
      : `the user has not been authenticated: the authentication lookups made (${attempts.map((past) => past.call.name).join(', ')}) returned no user id before exchanging items of order ${args.order_id}. Locate the user's id by email, or by name and zip code, first`;
  return { message, facts: { order_id: args.order_id, authenticationLookups: tried } };
};
