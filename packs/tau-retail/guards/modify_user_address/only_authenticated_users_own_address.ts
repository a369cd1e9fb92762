/** `modify_user_address.only_authenticated_users_own_address`: The user_id argument must equal the user id returned by the authentication lookup (find_user_id_by_email or find_user_id_by_name_zip) in this conversation. The agent may only modify the default address of the one authenticated user it is helping, never that of any other user. */
import type { PastToolCall, PolicyCheck } from 'agentguard';
import type { ModifyUserAddressArgs } from '../../types.ts';

const authenticationTools: readonly string[] = ['find_user_id_by_email', 'find_user_id_by_name_zip'];

/** The user id an authentication lookup returned, or undefined when it failed or returned nothing. */
function authenticatedId(past: PastToolCall): string | undefined {
  if (!authenticationTools.includes(past.call.name) || past.result === undefined) return undefined;
  let id = past.result.trim();
  if (id.length >= 2 && id.startsWith('"') && id.endsWith('"')) id = id.slice(1, -1).trim();
  return id === '' || id.startsWith('Error') ? undefined : id;
}

export const check: PolicyCheck<ModifyUserAddressArgs> = async (args, context) => {
  const authenticated: string[] = [];
  for (const past of context.conversation.toolCalls()) {
    const id = authenticatedId(past);
    if (id !== undefined && !authenticated.includes(id)) authenticated.push(id);
  }
  // The conversation serves one user: the first one authenticated.
  const user = authenticated[0];
  if (user === undefined) {
    return {
      message: `no user was authenticated in this conversation, so the default address of ${args.user_id} cannot be changed`,
      facts: { user_id: args.user_id, authenticatedUserIds: authenticated },
    };
  }
  if (args.user_id === user) return undefined;
  return {
    message: `the call changes the default address of user '${args.user_id}', but the user authenticated in this conversation is '${user}'; only that user's own address can be changed`,
    facts: { user_id: args.user_id, authenticatedUserId: user, authenticatedUserIds: authenticated },
  };
};
