/**
 * What a call on an order needs of the order: to be the authenticated user's, and to be in the status the tool acts on
 * ('pending' orders are cancelled or modified, 'delivered' ones returned or exchanged). Written in review, for the
 * `order_belongs_to_authenticated_user` and `order_status_…` policies of every tool that acts on an order.
 */
import type { GuardContext, PolicyFinding } from 'agentguard';
import type { GetOrderDetailsResult } from '../../types.ts';
import { authenticationAttempts, locatedUserId } from './authentication.ts';
import { lookup } from './domain.ts';

/** The order, or the finding that it could not be looked up (so `why` cannot be shown). */
async function orderFor(
  context: GuardContext,
  orderId: string,
  why: string,
): Promise<GetOrderDetailsResult | PolicyFinding> {
  try {
    return await lookup(context, 'get_order_details', { order_id: orderId });
  } catch (error) {
    return {
      message: `Order ${orderId} could not be looked up, so ${why}; check the order id.`,
      facts: { order_id: orderId, error: String(error) },
    };
  }
}

/**
 * Why a call on an order may not run for the conversation's user, the first one an authentication lookup located:
 * no user located, the order not found, or the order another user's; undefined when it is that user's. `done` says
 * what the call does to it ("be cancelled", "be exchanged").
 */
export async function orderOfAnotherUser(
  context: GuardContext,
  orderId: string,
  done: string,
): Promise<PolicyFinding | undefined> {
  const located = authenticationAttempts(context).flatMap((past) => locatedUserId(past) ?? []);
  const user = located[0];
  if (user === undefined) {
    return {
      message: `No user has been authenticated in this conversation (no find_user_id_by_email or find_user_id_by_name_zip lookup returned a user id), so order ${orderId} cannot be shown to belong to the user; authenticate the user first.`,
      facts: { order_id: orderId, authenticated_user_id: null },
    };
  }
  const order = await orderFor(context, orderId, `it cannot be shown to belong to the authenticated user ${user}`);
  if ('message' in order) return order;
  if (order.user_id === user) return undefined;
  return {
    message: `Order ${orderId} belongs to user ${order.user_id}, not to the authenticated user ${user}; only the authenticated user's own orders can ${done}, so deny this request.`,
    facts: { order_id: orderId, order_user_id: order.user_id, authenticated_user_id: user, located_user_ids: located },
  };
}

/**
 * Why a call on an order may not run in its status: the order cannot be looked up, or its status is not exactly
 * `status`; undefined when it is. `done` says what the call does to it ("be cancelled", "have their items modified").
 */
export async function orderNotIn(
  context: GuardContext,
  orderId: string,
  status: string,
  done: string,
): Promise<PolicyFinding | undefined> {
  const order = await orderFor(context, orderId, `its status cannot be shown to be '${status}'`);
  if ('message' in order) return order;
  if (order.status === status) return undefined;
  return {
    message: `Order ${orderId} has status '${order.status}'; only orders with status exactly '${status}' can ${done}, so do not go on with this call.`,
    facts: { order_id: orderId, status: order.status },
  };
}
