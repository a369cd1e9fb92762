/** `modify_pending_order_payment.order_status_pending`: The order (get_order_details(order_id)) must have status exactly 'pending'. Orders that are 'processed', 'delivered', 'cancelled', 'pending (items modified)' or in any other status cannot have their payment modified. */
import type { PolicyCheck } from 'agentguard';
import type { GetOrderDetailsResult, ModifyPendingOrderPaymentArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = async (args, context) => {
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
      message: `Order ${args.order_id} has status '${order.status}'; only orders with status exactly 'pending' can have their payment method modified. Tell the user the payment method of this order cannot be changed.`,
      facts: { order_id: args.order_id, status: order.status },
    };
  }
  return undefined;
};
