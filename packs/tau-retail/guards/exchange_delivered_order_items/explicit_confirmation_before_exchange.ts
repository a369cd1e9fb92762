/** `exchange_delivered_order_items.explicit_confirmation_before_exchange`: Before the call, the agent must have listed the exchange details to the user (order id, each item to be exchanged and the new item it becomes, the price difference and the payment method), and the user's latest message must explicitly confirm with 'yes' to proceed with exactly those details. */
import type { PolicyCheck } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs } from '../../types.ts';
import { decide, unconfirmed } from '../lib/dialogue.ts';

const tool = 'exchange_delivered_order_items';

/** Words that name the payment method in the agent's proposal: its id, and the kind of method it is. */
function paymentNames(paymentMethodId: string): string[] {
  const names = [paymentMethodId];
  if (paymentMethodId.startsWith('credit_card_')) names.push('credit card');
  else if (paymentMethodId.startsWith('gift_card_')) names.push('gift card');
  else if (paymentMethodId.startsWith('paypal_')) names.push('paypal');
  return names;
}

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  const sameTarget = (earlier: Record<string, unknown>): boolean => earlier['order_id'] === args.order_id;

  // The user must have said an explicit yes to the agent's listing of this exchange (order and items).
  const exchange = unconfirmed(
    context,
    tool,
    { action: /\bexchang/, details: [args.order_id, ...args.item_ids, ...args.new_item_ids] },
    sameTarget,
  );
  if (exchange !== undefined) return exchange;

  // The details confirmed must include this payment method for the price difference.
  const names = paymentNames(args.payment_method_id);
  const payment = context.conversation.agreed({ tool, names, sameTarget });
  return decide(payment, {
    need: `the user has not explicitly confirmed the exchange of order ${args.order_id} paid with ${args.payment_method_id}: the details they said yes to do not name this payment method (looked for ${names.map((name) => `"${name}"`).join(', ')}); list the exchange with this payment method and ask for a yes`,
    question: `Did the user explicitly confirm the exchange of order ${args.order_id} with payment method ${args.payment_method_id}?`,
    missingDenies: true,
  });
};
