/** `exchange_delivered_order_items.order_belongs_to_authenticated_user`: The order given by order_id (get_order_details) must belong to the authenticated user of this conversation: its user_id equals the user id found during authentication. Exchanging an order of any other user is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';
import { orderOfAnotherUser } from '../lib/orders.ts';

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = (args, context) =>
  orderOfAnotherUser(context, args.order_id, 'be exchanged');
