/** `return_delivered_order_items.user_confirmed_refund_method`: Before the call, the user must have confirmed in the conversation the payment method to receive the refund, and payment_method_id must equal it (the agent must not choose the refund method itself). */
import type { DomainDescription, PolicyCheck } from 'agentguard';
import type { ReturnDeliveredOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';
import { decide } from '../lib/dialogue.ts';
import { domain } from '../lib/domain-description.ts';

/** The pack's domain, with the words people use for kinds of payment method and for the order's original one. */
const refundDomain: DomainDescription = {
  kinds: {
    ...domain.kinds,
    payment_method: {
      key: 'id',
      digits: ['last_four'],
      classes: {
        field: 'source',
        phrases: {
          gift_card: ['gift card', 'giftcard'],
          credit_card: ['credit card', 'debit card', 'visa', 'mastercard', 'amex', 'american express', 'discover'],
          paypal: ['paypal', 'pay pal'],
        },
      },
      roles: {
        original: [
          'original payment method',
          'original payment',
          'original method',
          'original card',
          'original credit card',
          'same card',
          'same payment method',
          'card i paid with',
          'how i paid',
          'where it came from',
        ],
      },
    },
  },
};

export const check: PolicyCheck<ReturnDeliveredOrderItemsArgs> = async (args, context) => {
  const order = await lookup(context, 'get_order_details', { order_id: args.order_id });
  const user = await lookup(context, 'get_user_details', { user_id: order.user_id });

  const records: Record<string, unknown>[] = [];
  for (const method of Object.values(user.payment_methods)) {
    if (method !== undefined) records.push({ ...method });
  }
  const payments = order.payment_history.filter((entry) => entry.transaction_type.trim().toLowerCase() === 'payment');
  const original = (payments[0] ?? order.payment_history[0])?.payment_method_id;
  const roles: Record<string, string> = original === undefined ? {} : { original };

  const fact = context.conversation.stated(
    { value: args.payment_method_id, kind: 'payment_method', records, roles },
    refundDomain,
  );
  const finding = decide(fact, {
    need: `the user must choose where the refund goes; the call refunds to ${args.payment_method_id}, which the user did not confirm`,
    question: `Did the user confirm that the refund for order ${args.order_id} should go to ${args.payment_method_id}?`,
  });
  if (finding === undefined) return undefined;
  return {
    ...finding,
    facts: { ...finding.facts, order_id: args.order_id, payment_method_id: args.payment_method_id, original_payment_method_id: original },
  };
};
