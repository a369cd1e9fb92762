/** `modify_pending_order_address.order_status_pending`: The order's status (get_order_details(order_id).status) must be exactly 'pending'. Orders that are 'processed', 'delivered', 'cancelled', 'pending (items modified)' or in any other status cannot have their address modified. */
import type { PolicyCheck } from 'agentguard';
import type { GetOrderDetailsResult, ModifyPendingOrderAddressArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

export const check: PolicyCheck<ModifyPendingOrderAddressArgs> = async (args, context) => {
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
      message: `Order ${args.order_id} has status '${order.status}'; only orders with status 'pending' can have their shipping address modified. Tell the user the address of this order cannot be changed.`,
      facts: { order_id: args.order_id, status: order.status },
    };
  }
  return undefined;
};
