/** `return_delivered_order_items.order_status_delivered`: The order's status (get_order_details(order_id).status) must be exactly 'delivered'. Orders that are 'pending', 'processed', 'cancelled', 'return requested', 'exchange requested' or any other status cannot be returned. */
import type { PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { orderNotIn } from '../lib/orders.ts';

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = (args, context) =>
  orderNotIn(context, args.order_id, 'delivered', 'be returned');
