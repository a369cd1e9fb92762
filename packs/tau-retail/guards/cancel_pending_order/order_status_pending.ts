/** `cancel_pending_order.order_status_pending`: The order (get_order_details(order_id)) must have status exactly 'pending'. Orders that are 'processed', 'delivered', 'cancelled' or in any other status (for instance 'pending (items modified)') cannot be cancelled. */
import type { PolicyCheck } from 'agentguard';
import type { CancelPendingOrderArgs, GetOrderDetailsResult } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

export const check: PolicyCheck<CancelPendingOrderArgs> = async (args, context) => {
  let order: GetOrderDetailsResult;
  try {
    order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  } catch (error) {
    return {
      message: `order ${args.order_id} could not be found with get_order_details, so its status cannot be shown to be 'pending'; check the order id`,
      facts: { order_id: args.order_id, lookupError: String(error) },
    };
  }
  if (order.status === 'pending') return undefined;
  return {
    message: `order ${args.order_id} has status '${order.status}'; only orders with status 'pending' can be cancelled, so do not cancel it`,
    facts: { order_id: args.order_id, status: order.status },
  };
};
