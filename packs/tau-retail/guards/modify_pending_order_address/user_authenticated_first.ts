/** `modify_pending_order_address.user_authenticated_first`: Before the call, the user's identity must have been authenticated in this conversation by locating their user id with find_user_id_by_email (from the email the user gave) or find_user_id_by_name_zip (from the first name, last name and zip code the user gave), and that lookup must have returned a user id. A user id merely stated by the user does not count. */
import type { PastToolCall, PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderAddressArgs } from '../../types.ts';

const authenticationTools: readonly string[] = ['find_user_id_by_email', 'find_user_id_by_name_zip'];

/** Whether an earlier call is an authentication lookup that returned a user id (not an error, not empty). */
function authenticated(past: PastToolCall): boolean {
  if (!authenticationTools.includes(past.call.name)) return false;
  const result = (past.result ?? '').trim();
  return result !== '' && !result.startsWith('Error');
}

export const check: PolicyCheck<ModifyPendingOrderAddressArgs> = async (args, context) => {
  const lookups = context.conversation.toolCalls().filter((past) => authenticationTools.includes(past.call.name));
  if (lookups.some(authenticated)) return undefined;
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
