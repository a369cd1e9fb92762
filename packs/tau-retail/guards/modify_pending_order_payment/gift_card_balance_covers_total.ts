/** `modify_pending_order_payment.gift_card_balance_covers_total`: If payment_method_id is a gift card (id starting with 'gift_card_'), its balance in the user's profile (get_user_details) must be at least the order's total amount (sum of the order's item prices, from get_order_details). */
import type { PolicyCheck } from 'agentguard';
import type { GetOrderDetailsResult, GetUserDetailsResult, ModifyPendingOrderPaymentArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

/** Dollars as whole cents, so that sums of prices compare exactly. */
function cents(amount: number): number {
  return Math.round(amount * 100);
}

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = async (args, context) => {
  if (!args.payment_method_id.startsWith('gift_card_')) return undefined;

  let order: GetOrderDetailsResult;
  let user: GetUserDetailsResult;
  try {
    order = await lookup(context, 'get_order_details', { order_id: args.order_id });
    user = await lookup(context, 'get_user_details', { user_id: order.user_id });
  } catch (error) {
    return {
      message: `Order ${args.order_id} or its user's profile could not be looked up, so gift card ${args.payment_method_id} cannot be verified to cover the order total.`,
      facts: { order_id: args.order_id, payment_method_id: args.payment_method_id, error: String(error) },
    };
  }

  let totalCents = 0;
  for (const item of order.items) totalCents += cents(item.price);
  const total = totalCents / 100;

  const giftCard = user.payment_methods[args.payment_method_id];
  if (giftCard === undefined || giftCard.balance === undefined) {
    return {
      message: `Gift card ${args.payment_method_id} with a balance is not in the profile of user ${order.user_id}, so it cannot be shown to cover the order total of $${total}.`,
      facts: {
        order_id: args.order_id,
        user_id: order.user_id,
        payment_method_id: args.payment_method_id,
        order_total: total,
      },
    };
  }

  if (cents(giftCard.balance) < totalCents) {
    return {
      message: `Gift card ${args.payment_method_id} has a balance of $${giftCard.balance}, less than the order total of $${total} for order ${args.order_id}; a gift card must cover the total amount. Ask the user to choose another payment method.`,
      facts: {
        order_id: args.order_id,
        payment_method_id: args.payment_method_id,
        gift_card_balance: giftCard.balance,
        order_total: total,
      },
    };
  }
  return undefined;
};
