/** `return_delivered_order_items.order_belongs_to_authenticated_user`: The order given by order_id must belong to the authenticated user: get_order_details(order_id).user_id must equal the user id located during authentication. Returns for orders of any other user are not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { orderOfAnotherUser } from '../lib/orders.ts';

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = (args, context) =>
  orderOfAnotherUser(context, args.order_id, 'be returned');
