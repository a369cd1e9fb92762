/** `modify_pending_order_address.order_belongs_to_authenticated_user`: The order given by order_id must belong to the authenticated user: get_order_details(order_id).user_id must equal the user id located during authentication. Orders of any other user must not be modified. */
import type { PastToolCall, PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderAddressArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

const authenticationTools: readonly string[] = ['find_user_id_by_email', 'find_user_id_by_name_zip'];

/** The user id an authentication lookup returned, or undefined when it failed or returned nothing. */
function authenticatedId(past: PastToolCall): string | undefined {
  if (!authenticationTools.includes(past.call.name)) return undefined;
  if (past.result === undefined) return undefined;
  let id = past.result.trim();
  if (id.length >= 2 && id.startsWith('"') && id.endsWith('"')) id = id.slice(1, -1).trim();
  if (id === '' || id.startsWith('Error')) return undefined;
  return id;
}

export const check: PolicyCheck<ModifyPendingOrderAddressArgs> = async (args, context) => {
  const authenticated: string[] = [];
  for (const past of context.conversation.toolCalls()) {
    const id = authenticatedId(past);
    if (id !== undefined && !authenticated.includes(id)) authenticated.push(id);
  }
  const user = authenticated[0];
  if (user === undefined) {
    return {
      message: `no user was authenticated in this conversation (no successful find_user_id_by_email or find_user_id_by_name_zip), so order ${args.order_id} cannot be shown to belong to the user`,
      facts: { order_id: args.order_id, authenticatedUserIds: authenticated },
    };
  }
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  if (order.user_id === user) return undefined;
  return {
    message: `order ${args.order_id} belongs to user '${order.user_id}', not to '${user}', the user authenticated in this conversation; only that user's orders can be modified`,
    facts: {
      order_id: args.order_id,
      orderUserId: order.user_id,
      authenticatedUserId: user,
      authenticatedUserIds: authenticated,
    },
  };
};
