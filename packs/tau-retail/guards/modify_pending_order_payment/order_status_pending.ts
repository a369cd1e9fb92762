/** `modify_pending_order_payment.order_status_pending`: The order (get_order_details(order_id)) must have status exactly 'pending'. Orders that are 'processed', 'delivered', 'cancelled', 'pending (items modified)' or in any other status cannot have their payment modified. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderPaymentArgs } from '../../types.ts';
import { orderNotIn } from '../lib/orders.ts';

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = (args, context) =>
  orderNotIn(context, args.order_id, 'pending', 'have their payment method modified');
