/** `modify_pending_order_address.order_status_pending`: The order's status (get_order_details(order_id).status) must be exactly 'pending'. Orders that are 'processed', 'delivered', 'cancelled', 'pending (items modified)' or in any other status cannot have their address modified. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderAddressArgs } from '../../types.ts';
import { orderNotIn } from '../lib/orders.ts';

export const check: PolicyCheck<ModifyPendingOrderAddressArgs> = (args, context) =>
  orderNotIn(context, args.order_id, 'pending', 'have their shipping address modified');
