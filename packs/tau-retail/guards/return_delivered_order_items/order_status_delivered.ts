/** `return_delivered_order_items.order_status_delivered`: The order's status (get_order_details(order_id).status) must be exactly 'delivered'. Orders that are 'pending', 'processed', 'cancelled', 'return requested', 'exchange requested' or any other status cannot be returned. */
import type { PolicyCheck } from 'agentguard';
import type { GetOrderDetailsResult, ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  let order: GetOrderDetailsResult;
  try {
    order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  } catch (error) {
    return {
      message: `order ${args.order_id} could not be found with get_order_details, so its status cannot be shown to be 'delivered'; check the order id`,
      facts: { order_id: args.order_id, lookupError: String(error) },
    };
  }
  if (order.status === 'delivered') return undefined;
  return {
    message: `order ${args.order_id} has status '${order.status}'; only orders with status 'delivered' can be returned, so do not return it`,
    facts: { order_id: args.order_id, status: order.status },
  };
};
