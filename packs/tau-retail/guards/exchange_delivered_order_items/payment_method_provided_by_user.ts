/** `exchange_delivered_order_items.payment_method_provided_by_user`: payment_method_id must be a payment method the user provided in the conversation to pay or receive the refund of the price difference; the agent must not choose it on its own. */
import type { PolicyCheck, StatedValue } from 'agentguard';
import type { ExchangeDeliveredOrderItemsArgs, GetOrderDetailsResult, GetUserDetailsResult } from '../../types.ts';
import { decide } from '../lib/dialogue.ts';
import { lookup } from '../lib/domain.ts';
import { domain } from '../lib/domain-description.ts';
import { chosenAmongOthers } from '../lib/payment.ts';

type PaymentMethodRecord = NonNullable<GetUserDetailsResult['payment_methods'][string]>;

export const check: PolicyCheck<ExchangeDeliveredOrderItemsArgs> = async (args, context) => {
  const order: GetOrderDetailsResult = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const user: GetUserDetailsResult = await lookup(context, 'get_user_details', { user_id: order.user_id });

  // The user's payment methods: the records the user could have meant ("my gift card", "the card ending in 7777").
  const records: PaymentMethodRecord[] = [];
  for (const method of Object.values(user.payment_methods)) {
    if (method !== undefined) records.push(method);
  }

  // The order's original payment method, so that "the original payment method" names it.
  const originalPayment = order.payment_history.find((entry) => entry.transaction_type === 'payment');

  const request: StatedValue = {
    value: args.payment_method_id,
    kind: 'payment_method',
    records,
    ...(originalPayment !== undefined ? { roles: { original: originalPayment.payment_method_id } } : {}),
  };
  const fact = context.conversation.stated(request, domain);

  if (fact.answer === 'yes') return undefined;
  // Their words named this method among others (one per request) and they said yes to the listing of this call.
  const method = records.find((record) => record.id === args.payment_method_id);
  if (
    method !== undefined &&
    chosenAmongOthers(
      context,
      'exchange_delivered_order_items',
      args.order_id,
      method,
      originalPayment?.payment_method_id,
    )
  )
    return undefined;
  const finding = decide(fact, {
    need: `the user must provide the payment method used to pay or receive the refund of the price difference, but did not provide ${args.payment_method_id}; ask the user which payment method to use`,
    question: `Did the user choose ${args.payment_method_id} to pay or receive the refund of the price difference for order ${args.order_id}?`,
  });
  if (finding === undefined) return undefined;
  return {
    ...finding,
    facts: {
      ...finding.facts,
      order_id: args.order_id,
      payment_method_id: args.payment_method_id,
      user_payment_methods: records.map((method) => method.id),
    },
  };
};
