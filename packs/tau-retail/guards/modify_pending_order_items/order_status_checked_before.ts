/** `modify_pending_order_items.order_status_checked_before`: Before the call, the agent must have checked the order's status in this conversation by calling get_order_details for this order_id. */
import type { PastToolCall, PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderItemsArgs } from '../../types.ts';

/** Whether a get_order_details call returned the order (a recorded result that is not an error). */
function returnedOrder(past: PastToolCall): boolean {
  const result = past.result?.trim();
  return result !== undefined && result !== '' && !result.startsWith('Error');
}

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  const lookups = context.conversation.toolCalls().filter((past) => past.call.name === 'get_order_details');
  const checked = lookups.some((past) => past.call.arguments['order_id'] === args.order_id && returnedOrder(past));
  if (checked) return undefined;
  const orderIdsChecked = lookups.map((past) => past.call.arguments['order_id']);
  return {
    message: `the status of order ${args.order_id} was not checked before modifying its items: no get_order_details call for ${args.order_id} returned the order earlier in the conversation${orderIdsChecked.length > 0 ? ` (get_order_details was called for: ${orderIdsChecked.map((id) => String(id)).join(', ')})` : ''}; call get_order_details for it and modify only if its status is 'pending'`,
    facts: { order_id: args.order_id, orderIdsChecked },
  };
};
