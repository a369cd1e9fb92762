/** `modify_pending_order_items.user_authenticated_first`: Before the call, the user's identity must have been authenticated in this conversation by locating their user id with find_user_id_by_email (from the email the user gave) or find_user_id_by_name_zip (from the first name, last name and zip code the user gave), and that lookup must have returned a user id. A user id merely stated by the user does not count. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';
import { authenticationAttempts, locatedUserId } from '../lib/authentication.ts';

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  const attempts = authenticationAttempts(context);
  if (attempts.some((past) => locatedUserId(past) !== undefined)) return undefined;
  const tried = attempts.map((past) => ({
    tool: past.call.name,
    arguments: past.call.arguments,
    result: past.result ?? null,
  }));
  const message =
    attempts.length === 0
      ? `the user has not been authenticated: no find_user_id_by_email or find_user_id_by_name_zip lookup was made before modifying items of order ${args.order_id}; a user id stated by the user does not count. Ask for the user's email, or name and zip code, and locate their user id first`
      : `the user has not been authenticated: the authentication lookups made (${attempts.map((past) => past.call.name).join(', ')}) returned no user id before modifying items of order ${args.order_id}. Locate the user's id by email, or by name and zip code, first`;
  return { message, facts: { order_id: args.order_id, authenticationLookups: tried } };
};
