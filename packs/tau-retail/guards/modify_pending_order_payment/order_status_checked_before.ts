/** `modify_pending_order_payment.order_status_checked_before`: Before the call, the agent must have checked the order's status in this conversation by calling get_order_details for this order_id. If no get_order_details call for this order appears earlier in the conversation, the call is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderPaymentArgs } from '../../types.ts';

/** An order id without surrounding spaces or its leading '#', upper-cased, so '#W123' and 'W123' match. */
function normalizeOrderId(orderId: string): string {
  return orderId.trim().replace(/^#/, '').toUpperCase();
}

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = async (args, context) => {
  const wanted = normalizeOrderId(args.order_id);
  const lookupsOfOrder = context.conversation
    .toolCalls()
    .filter((past) => past.call.name === 'get_order_details')
    .filter((past) => {
      const orderId = past.call.arguments['order_id'];
      return typeof orderId === 'string' && normalizeOrderId(orderId) === wanted;
    });
  const checked = lookupsOfOrder.some(
    (past) => past.result !== undefined && !past.result.trimStart().startsWith('Error'),
  );
  if (checked) return undefined;
  return {
    message:
      `The status of order ${args.order_id} was not checked: call get_order_details for ${args.order_id} ` +
      `before changing its payment method, and change it only if its status is 'pending'.`,
    facts: {
      order_id: args.order_id,
      get_order_details_calls_for_order: lookupsOfOrder.length,
      successful_status_check: false,
    },
  };
};
