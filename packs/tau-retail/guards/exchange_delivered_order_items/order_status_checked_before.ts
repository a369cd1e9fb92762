/** `exchange_delivered_order_items.order_status_checked_before`: Before the call, the agent must have checked the order's status in this conversation by calling get_order_details for this order_id (after which the status seen must be 'delivered'). */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';

/** The part of a get_order_details result this check reads. */
interface SeenOrder {
  status: string;
}

/** An order id without surrounding spaces or its leading '#', upper-cased, so '#W123' and 'W123' match. */
function normalizeOrderId(orderId: string): string {
  return orderId.trim().replace(/^#/, '').toUpperCase();
}

/** The status in a get_order_details result text, or undefined when the text is not an order record. */
function statusIn(result: string): string | undefined {
  try {
    const order = JSON.parse(result) as SeenOrder | null;
    return order === null ? undefined : order.status;
  } catch {
    return undefined;
  }
}

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  const wanted = normalizeOrderId(args.order_id);
  const checks = context.conversation
    .toolCalls()
    .filter((past) => past.call.name === 'get_order_details')
    .filter((past) => {
      const orderId = past.call.arguments['order_id'];
      return typeof orderId === 'string' && normalizeOrderId(orderId) === wanted;
    })
    .filter((past) => past.result !== undefined && !past.result.trimStart().startsWith('Error'));

  const latest = checks[checks.length - 1];
  if (latest === undefined || latest.result === undefined) {
    return {
      message:
        `The status of order ${args.order_id} was not checked: call get_order_details for ${args.order_id} ` +
        `before exchanging its items, and exchange only if its status is 'delivered'.`,
      facts: { order_id: args.order_id, status_checked: false },
    };
  }

  const status = statusIn(latest.result);
  if (status !== undefined && status !== 'delivered') {
    return {
      message:
        `The status of order ${args.order_id} seen with get_order_details is '${status}', not 'delivered'; ` +
        `only delivered orders can be exchanged.`,
      facts: { order_id: args.order_id, status_checked: true, status_seen: status },
    };
  }
  return undefined;
};
