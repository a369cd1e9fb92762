/** `exchange_delivered_order_items.exchange_only_once`: The exchange tool can be called only once per order: there must be no earlier exchange_delivered_order_items (or return) call for this order in the conversation that was carried out (one refused or failed changed nothing), and the order must not already be 'exchange requested' or 'return requested'. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';
import { changedNothing } from '../lib/changes.ts';
import { lookup } from '../lib/domain.ts';

/** Tools whose successful call on an order uses up its one exchange or return. */
const onceTools: readonly string[] = ['exchange_delivered_order_items', 'return_delivered_order_items'];

/** Statuses of an order whose exchange or return was already requested. */
const usedStatuses: readonly string[] = ['exchange requested', 'return requested'];

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  const earlier = context.conversation
    .toolCalls()
    .filter(
      (past) =>
        onceTools.includes(past.call.name) &&
        past.call.arguments['order_id'] === args.order_id &&
        !changedNothing(past.result),
    );
  const first = earlier[0];
  if (first !== undefined) {
    return {
      message: `order ${args.order_id} already had a ${first.call.name} call earlier in this conversation; an order can be exchanged or returned only once`,
      facts: {
        order_id: args.order_id,
        earlierTool: first.call.name,
        earlierArguments: first.call.arguments,
        earlierResult: first.result,
      },
    };
  }
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  if (usedStatuses.includes(order.status)) {
    return {
      message: `order ${args.order_id} has status '${order.status}': its exchange or return was already requested, and it cannot be exchanged again`,
      facts: { order_id: args.order_id, status: order.status },
    };
  }
  return undefined;
};
