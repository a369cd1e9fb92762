/** `modify_pending_order_address.modify_tool_called_once`: modify_pending_order_address may be called only once per order in the conversation: if an earlier successful call of it for the same order_id appears in the conversation, the call is not allowed. All the address changes must be collected into the single call. */
import type { PastToolCall, PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderAddressArgs } from '../../types.ts';

const tool = 'modify_pending_order_address';

/** Whether an earlier call's result shows it went through (a recorded result that is not an error). */
function succeeded(past: PastToolCall): boolean {
  const result = past.result?.trim();
  return result !== undefined && result !== '' && !result.startsWith('Error');
}

export const check: PolicyCheck<ModifyPendingOrderAddressArgs> = async (args, context) => {
  const earlier = context.conversation
    .toolCalls()
    .filter((past) => past.call.name === tool && past.call.arguments['order_id'] === args.order_id && succeeded(past));
  const first = earlier[0];
  if (first === undefined) return undefined;
  return {
    message: `the shipping address of order ${args.order_id} was already modified earlier in this conversation (call ${first.call.id}); the modify tool can only be called once per order, so it cannot be modified again`,
    facts: {
      order_id: args.order_id,
      earlierCalls: earlier.map((past) => ({
        id: past.call.id,
        arguments: past.call.arguments,
        result: past.result ?? null,
      })),
    },
  };
};
