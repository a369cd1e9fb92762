/** `modify_pending_order_payment.explicit_confirmation_before_modify_payment`: Before calling modify_pending_order_payment the agent must have listed the action details (order id, the original and the new payment method, refund of the original payment method) to the user, and the user's latest message must explicitly confirm with 'yes' to proceed. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderPaymentArgs } from '../../types.ts';
import { decide, unconfirmed } from '../lib/dialogue.ts';

/** How a proposal may name a payment method of this kind, by its id's prefix. */
const paymentKinds: readonly { prefix: string; names: readonly string[] }[] = [
  { prefix: 'gift_card_', names: ['gift card'] },
  { prefix: 'credit_card_', names: ['credit card'] },
  { prefix: 'paypal_', names: ['paypal'] },
];

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = async (args, context) => {
  const sameTarget = (earlier: Record<string, unknown>): boolean => earlier['order_id'] === args.order_id;
  const decided = { order_id: args.order_id, payment_method_id: args.payment_method_id };

  // An explicit yes, as the user's latest message, to the agent's proposal of this payment change.
  const confirmation = unconfirmed(
    context,
    'modify_pending_order_payment',
    { action: /\b(change|switch|modif|pay)/, details: [args.order_id, args.payment_method_id] },
    sameTarget,
  );
  if (confirmation !== undefined) {
    return { ...confirmation, facts: { ...confirmation.facts, ...decided } };
  }

  // The confirmed proposal must name the new payment method this call uses.
  const names: string[] = [args.payment_method_id];
  for (const kind of paymentKinds) {
    if (args.payment_method_id.startsWith(kind.prefix)) names.push(...kind.names);
  }
  const finding = decide(context.conversation.agreed({ tool: 'modify_pending_order_payment', names, sameTarget }), {
    need:
      `the payment change the user confirmed does not name the new payment method ${args.payment_method_id}; ` +
      `list the order id, the original and the new payment method and the refund, and ask for a yes first`,
    question: `Did the user explicitly confirm paying order ${args.order_id} with ${args.payment_method_id}?`,
    missingDenies: true,
  });
  if (finding !== undefined) {
    return { ...finding, facts: { ...finding.facts, ...decided } };
  }
  return undefined;
};
