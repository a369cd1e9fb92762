/** `modify_pending_order_payment.payment_method_different_from_original`: payment_method_id must be a single payment method that differs from the order's original payment method (the payment method used in the order's payment history, from get_order_details). */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderPaymentArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  // The method the order is paid with: its latest payment (a refund entry is not a payment).
  const payments = order.payment_history.filter((entry) => entry.transaction_type.trim().toLowerCase() === 'payment');
  const paidWith = (payments.length > 0 ? payments : order.payment_history).at(-1);
  if (paidWith === undefined) return undefined;

  if (paidWith.payment_method_id.trim() === args.payment_method_id.trim()) {
    return {
      message:
        `Order ${args.order_id} is already paid with ${paidWith.payment_method_id}; the new payment method must be a single ` +
        `method different from the original one. Ask the user to choose another payment method.`,
      facts: {
        order_id: args.order_id,
        payment_method_id: args.payment_method_id,
        original_payment_method_id: paidWith.payment_method_id,
        payment_history: order.payment_history,
      },
    };
  }
  return undefined;
};
