/** `exchange_delivered_order_items.order_status_delivered`: Read the order with get_order_details(order_id): its status must be exactly 'delivered'. Orders that are 'pending', 'processed', 'cancelled', 'return requested', 'exchange requested' or any other status cannot be exchanged. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';
import { orderNotIn } from '../lib/orders.ts';

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = (args, context) =>
  orderNotIn(context, args.order_id, 'delivered', 'be exchanged');
