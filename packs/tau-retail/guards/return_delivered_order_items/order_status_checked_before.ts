/** `return_delivered_order_items.order_status_checked_before`: Before the call, the agent must have checked the order's status in this conversation by calling get_order_details for this order_id. If no get_order_details call for this order appears earlier in the conversation, the call is not allowed. */
import type { PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';

/** Whether a lookup's result text is an error (nothing was read). */
function failed(result: string | undefined): boolean {
  return result === undefined || result.trim().startsWith('Error');
}

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  const pastCalls = context.conversation.toolCalls();
  const checked = pastCalls.some(
    (past) =>
      past.call.name === 'get_order_details' &&
      past.call.arguments['order_id'] === args.order_id &&
      !failed(past.result),
  );
  if (checked) return undefined;

  const lookedUp = pastCalls
    .filter((past) => past.call.name === 'get_order_details')
    .map((past) => past.call.arguments['order_id']);
  return {
    message: `The agent has not checked the status of order ${args.order_id} with get_order_details in this conversation${lookedUp.length > 0 ? ` (it only looked up ${lookedUp.map((id) => String(id)).join(', ')})` : ''}. Call get_order_details for ${args.order_id} to check that it is 'delivered' before returning items.`,
    facts: { order_id: args.order_id, order_ids_looked_up: lookedUp },
  };
};
