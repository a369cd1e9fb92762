/** `modify_pending_order_items.order_status_pending`: The order's status (get_order_details(order_id).status) must be exactly 'pending'. Orders that are 'processed', 'delivered', 'cancelled', or 'pending (items modified)' (items already modified once) cannot have items modified. */
import type { PolicyCheck } from 'agentguard';
import type { GetOrderDetailsResult, ModifyPendingOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  let order: GetOrderDetailsResult;
  try {
    order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  } catch (error) {
    return {
      message: `Order ${args.order_id} could not be looked up, so its status cannot be verified to be 'pending'.`,
      facts: { order_id: args.order_id, error: String(error) },
    };
  }
  if (order.status !== 'pending') {
    return {
      message: `Order ${args.order_id} has status '${order.status}'; items can only be modified while the order's status is exactly 'pending' (not after the items were already modified once). Tell the user the items of this order cannot be modified.`,
      facts: { order_id: args.order_id, status: order.status },
    };
  }
  return undefined;
};
