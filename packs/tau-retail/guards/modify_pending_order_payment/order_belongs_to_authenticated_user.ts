/** `modify_pending_order_payment.order_belongs_to_authenticated_user`: The order given by order_id (get_order_details) must belong to the authenticated user: its user_id must equal the user id located during authentication. Orders of any other user must not be modified. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderPaymentArgs } from '../../types.ts';
import { orderOfAnotherUser } from '../lib/orders.ts';

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = (args, context) =>
  orderOfAnotherUser(context, args.order_id, 'be changed');
