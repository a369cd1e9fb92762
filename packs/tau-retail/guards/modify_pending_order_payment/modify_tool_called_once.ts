/** `modify_pending_order_payment.modify_tool_called_once`: modify_pending_order_payment may be called only once per order in the conversation: if an earlier successful call of it for the same order_id is in the conversation, the call is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderPaymentArgs } from '../../types.ts';

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = async (args, context) => {
  // An earlier call of this tool for the same order that succeeded (its result is not an error text).
  const earlier = context.conversation.toolCalls().find((past) => {
    if (past.call.name !== 'modify_pending_order_payment') return false;
    if (past.call.arguments['order_id'] !== args.order_id) return false;
    const result = past.result?.trim();
    return result !== undefined && result !== '' && !result.startsWith('Error');
  });
  if (earlier === undefined) return undefined;

  const earlierPayment = earlier.call.arguments['payment_method_id'];
  return {
    message:
      `The payment method of order ${args.order_id} was already modified in this conversation ` +
      `(to ${String(earlierPayment)}); modify order tools can only be called once, so it cannot be changed again ` +
      `to ${args.payment_method_id}. Tell the user the payment method of this order cannot be modified again.`,
    facts: {
      order_id: args.order_id,
      payment_method_id: args.payment_method_id,
      earlier_payment_method_id: earlierPayment ?? null,
      earlier_call_message_index: earlier.messageIndex,
    },
  };
};
