/** `modify_pending_order_items.order_status_pending`: The order's status (get_order_details(order_id).status) must be exactly 'pending'. Orders that are 'processed', 'delivered', 'cancelled', or 'pending (items modified)' (items already modified once) cannot have items modified. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';
import { orderNotIn } from '../lib/orders.ts';

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = (args, context) =>
  orderNotIn(context, args.order_id, 'pending', 'have their items modified');
