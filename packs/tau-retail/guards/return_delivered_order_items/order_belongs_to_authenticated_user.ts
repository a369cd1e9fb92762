/** `return_delivered_order_items.order_belongs_to_authenticated_user`: The order given by order_id must belong to the authenticated user: get_order_details(order_id).user_id must equal the user id located during authentication. Returns for orders of any other user are not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { GetOrderDetailsResult, ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

/** The user id a find_user_id_by_email / find_user_id_by_name_zip result names, or undefined for an error or no result. */
function locatedUserId(result: string | undefined): string | undefined {
  if (result === undefined) return undefined;
  const trimmed = result.trim();
  if (trimmed === '' || trimmed.startsWith('Error')) return undefined;
  if (trimmed.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return typeof parsed === 'string' && parsed !== '' ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return trimmed;
}

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  // The user ids located by the authentication lookups, oldest first; the first one is the conversation's user.
  const located: string[] = [];
  for (const past of context.conversation.toolCalls()) {
    const name = past.call.name;
    if (name !== 'find_user_id_by_email' && name !== 'find_user_id_by_name_zip') continue;
    const userId = locatedUserId(past.result);
    if (userId !== undefined) located.push(userId);
  }
  const authenticatedUserId = located[0];
  if (authenticatedUserId === undefined) {
    return {
      message: `No user has been authenticated in this conversation (no find_user_id_by_email or find_user_id_by_name_zip lookup returned a user id), so order ${args.order_id} cannot be shown to belong to the user; authenticate the user first.`,
      facts: { order_id: args.order_id, authenticated_user_id: null },
    };
  }

  let order: GetOrderDetailsResult;
  try {
    order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  } catch (error) {
    return {
      message: `Order ${args.order_id} could not be looked up, so it cannot be shown to belong to the authenticated user ${authenticatedUserId}.`,
      facts: { order_id: args.order_id, authenticated_user_id: authenticatedUserId, error: String(error) },
    };
  }

  if (order.user_id !== authenticatedUserId) {
    return {
      message: `Order ${args.order_id} belongs to user ${order.user_id}, not to the authenticated user ${authenticatedUserId}; you can only help the authenticated user with their own orders, so deny this request.`,
      facts: {
        order_id: args.order_id,
        order_user_id: order.user_id,
        authenticated_user_id: authenticatedUserId,
        located_user_ids: located,
      },
    };
  }
  return undefined;
};
