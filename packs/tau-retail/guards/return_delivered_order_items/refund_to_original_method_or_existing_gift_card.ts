/** `return_delivered_order_items.refund_to_original_method_or_existing_gift_card`: payment_method_id must be either the order's original payment method (the payment method of the order's payment in get_order_details payment_history) or a gift card that already exists in the user's profile (get_user_details payment_methods, id starting with 'gift_card_'). Any other method (for instance a different credit card or paypal account than the original) is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const original = [
    ...new Set(
      order.payment_history
        .filter((entry) => entry.transaction_type === 'payment')
        .map((entry) => entry.payment_method_id),
    ),
  ];
  if (original.includes(args.payment_method_id)) return undefined;

  const user = await lookup(context, 'get_user_details', { user_id: order.user_id });
  const giftCards = Object.values(user.payment_methods)
    .filter((method) => method !== undefined)
    .filter((method) => method.source === 'gift_card' || method.id.startsWith('gift_card_'))
    .map((method) => method.id);
  if (giftCards.includes(args.payment_method_id)) return undefined;

  return {
    message: `the refund for order ${args.order_id} goes to ${args.payment_method_id}, which is neither the order's original payment method (${original.join(', ') || 'none recorded'}) nor an existing gift card of user ${order.user_id} (${giftCards.join(', ') || 'none'}); refund to the original payment method or an existing gift card`,
    facts: {
      order_id: args.order_id,
      payment_method_id: args.payment_method_id,
      originalPaymentMethods: original,
      userGiftCards: giftCards,
    },
  };
};
