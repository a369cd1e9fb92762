/** `exchange_delivered_order_items.order_status_delivered`: Read the order with get_order_details(order_id): its status must be exactly 'delivered'. Orders that are 'pending', 'processed', 'cancelled', 'return requested', 'exchange requested' or any other status cannot be exchanged. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  if (order.status === 'delivered') return undefined;
  return {
    message: `order ${args.order_id} has status '${order.status}'; only orders with status 'delivered' can be exchanged`,
    facts: { order_id: args.order_id, status: order.status },
  };
};
