/** `modify_pending_order_address.order_status_checked_before`: Before the call, the agent must have checked the order's status in this conversation by calling get_order_details for this order_id. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderAddressArgs } from '../../types.ts';

export const check: PolicyCheck<ModifyPendingOrderAddressArgs> = async (args, context) => {
  const pastCalls = context.conversation.toolCalls();
  // A status check: an earlier get_order_details for this very order that returned the order (not an error).
  const checked = pastCalls.some(
    (past) =>
      past.call.name === 'get_order_details' &&
      past.call.arguments['order_id'] === args.order_id &&
      past.result !== undefined &&
      !past.result.trimStart().startsWith('Error'),
  );
  if (checked) return undefined;

  const lookedUp = pastCalls
    .filter((past) => past.call.name === 'get_order_details')
    .map((past) => past.call.arguments['order_id']);
  return {
    message:
      `The status of order ${args.order_id} has not been checked in this conversation: no get_order_details call for ` +
      `${args.order_id} precedes this address change${lookedUp.length === 0 ? '' : ` (orders looked up: ${lookedUp.map(String).join(', ')})`}. ` +
      `Call get_order_details for ${args.order_id} first and change the address only if its status is 'pending'.`,
    facts: { order_id: args.order_id, orders_looked_up: lookedUp },
  };
};
