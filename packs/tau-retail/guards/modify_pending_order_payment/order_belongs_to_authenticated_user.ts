/** `modify_pending_order_payment.order_belongs_to_authenticated_user`: The order given by order_id (get_order_details) must belong to the authenticated user: its user_id must equal the user id located during authentication. Orders of any other user must not be modified. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderPaymentArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

const authenticationLookups: ReadonlySet<string> = new Set(['find_user_id_by_email', 'find_user_id_by_name_zip']);

/** The user id a successful authentication lookup returned, without surrounding quotes or spaces. */
function userIdIn(result: string | undefined): string | undefined {
  if (result === undefined) return undefined;
  const trimmed = result.trim();
  if (trimmed === '' || trimmed.startsWith('Error')) return undefined;
  return trimmed.replace(/^"(.*)"$/, '$1').trim();
}

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = async (args, context) => {
  const authenticated = context.conversation
    .toolCalls()
    .filter((past) => authenticationLookups.has(past.call.name))
    .map((past) => userIdIn(past.result))
    .filter((userId): userId is string => userId !== undefined && userId !== '');

  // The conversation's user is the first one authenticated: one user per conversation.
  const userId = authenticated[0];
  if (userId === undefined) {
    return {
      message:
        `No user has been authenticated (find_user_id_by_email or find_user_id_by_name_zip), so order ${args.order_id} ` +
        `cannot be shown to belong to the user; authenticate the user first.`,
      facts: { order_id: args.order_id, authenticated_user_id: null },
    };
  }

  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  if (order.user_id !== userId) {
    return {
      message:
        `Order ${args.order_id} belongs to user ${order.user_id}, not to the authenticated user ${userId}; ` +
        `only the authenticated user's own orders can be changed, so deny this request.`,
      facts: {
        order_id: args.order_id,
        order_user_id: order.user_id,
        authenticated_user_id: userId,
        other_users_looked_up: authenticated.filter((other) => other !== userId),
      },
    };
  }
  return undefined;
};
