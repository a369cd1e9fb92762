/** `cancel_pending_order.order_status_pending`: The order (get_order_details(order_id)) must have status exactly 'pending'. Orders that are 'processed', 'delivered', 'cancelled' or in any other status (for instance 'pending (items modified)') cannot be cancelled. */
import type { PolicyCheck } from 'agentguard';
import type { CancelPendingOrderArgs } from '../../types.ts';
import { orderNotIn } from '../lib/orders.ts';

export const check: PolicyCheck<CancelPendingOrderArgs> = (args, context) =>
  orderNotIn(context, args.order_id, 'pending', 'be cancelled');
