/** `cancel_pending_order.order_belongs_to_authenticated_user`: The order given by order_id (get_order_details) must belong to the authenticated user: its user_id must equal the user id located during authentication. Orders of any other user must not be cancelled. */
import type { PolicyCheck } from 'agentguard';
import type { CancelPendingOrderArgs } from '../../types.ts';
import { orderOfAnotherUser } from '../lib/orders.ts';

export const check: PolicyCheck<CancelPendingOrderArgs> = (args, context) =>
  orderOfAnotherUser(context, args.order_id, 'be cancelled');
