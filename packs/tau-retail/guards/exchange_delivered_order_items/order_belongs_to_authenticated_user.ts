/** `exchange_delivered_order_items.order_belongs_to_authenticated_user`: The order given by order_id (get_order_details) must belong to the authenticated user of this conversation: its user_id equals the user id found during authentication. Exchanging an order of any other user is not allowed. */
import type { PastToolCall, PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';
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

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
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
    message: `order ${args.order_id} belongs to user '${order.user_id}', not to '${user}', the user authenticated in this conversation; only that user's orders can be exchanged`,
    facts: {
      order_id: args.order_id,
      orderUserId: order.user_id,
      authenticatedUserId: user,
      authenticatedUserIds: authenticated,
    },
  };
};
