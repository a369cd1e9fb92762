/** `modify_pending_order_address.user_authenticated_first`: Before the call, the user's identity must have been authenticated in this conversation by locating their user id with find_user_id_by_email (from the email the user gave) or find_user_id_by_name_zip (from the first name, last name and zip code the user gave), and that lookup must have returned a user id. A user id merely stated by the user does not count. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderAddressArgs } from '../../types.ts';
import { authenticationAttempts, locatedUserId } from '../lib/authentication.ts';

export const check: PolicyCheck<ModifyPendingOrderAddressArgs> = async (args, context) => {
  const lookups = authenticationAttempts(context);
  if (lookups.some((past) => locatedUserId(past) !== undefined)) return undefined;
  return {
    message:
      lookups.length === 0
        ? `the user was not authenticated before changing the address of order ${args.order_id}: no find_user_id_by_email or find_user_id_by_name_zip call was made; authenticate the user by email, or by name and zip code, first`
        : `the user was not authenticated before changing the address of order ${args.order_id}: the authentication lookups returned no user id (${lookups.map((past) => `${past.call.name}: ${past.result ?? 'no result'}`).join('; ')}); authenticate the user by email, or by name and zip code, first`,
    facts: {
      order_id: args.order_id,
      authenticationLookups: lookups.map((past) => ({
        tool: past.call.name,
        arguments: past.call.arguments,
        result: past.result ?? null,
      })),
    },
  };
};
