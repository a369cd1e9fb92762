/** `modify_user_address.authenticate_user_first`: Before modify_user_address is called, the user's identity must have been authenticated in this conversation by a successful call to find_user_id_by_email or find_user_id_by_name_zip that returned a user id. This applies even if the user stated their user id themselves. If no such lookup has succeeded earlier in the conversation, the call is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyUserAddressArgs } from '../../types.ts';
import { authenticationAttempts, locatedUserId } from '../lib/authentication.ts';

export const check: PolicyCheck<ModifyUserAddressArgs> = async (args, context) => {
  const lookups = authenticationAttempts(context);
  if (lookups.some((past) => locatedUserId(past) !== undefined)) return undefined;
  return {
    message:
      lookups.length === 0
        ? `the user was not authenticated before changing the default address of user ${args.user_id}: no find_user_id_by_email or find_user_id_by_name_zip call was made; authenticate the user by email, or by name and zip code, first`
        : `the user was not authenticated before changing the default address of user ${args.user_id}: the authentication lookups returned no user id (${lookups.map((past) => `${past.call.name}: ${past.result ?? 'no result'}`).join('; ')}); authenticate the user by email, or by name and zip code, first`,
    facts: {
      user_id: args.user_id,
      authenticationLookups: lookups.map((past) => ({
        tool: past.call.name,
        arguments: past.call.arguments,
        result: past.result ?? null,
      })),
    },
  };
};
