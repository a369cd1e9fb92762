/** `transfer_to_human_agents.transfer_only_when_out_of_scope`: transfer_to_human_agents may only be called when the user's request cannot be handled within the scope of the agent's actions; a request the agent can handle (or must refuse under the policy) is not transferred. */
import type { PolicyCheck } from 'agentguard';
import type { TransferToHumanAgentsArgs } from '../../types.ts';

/** Requests no tool of the agent can serve, each with phrases a user asks them with. */
const outOfScope: Readonly<Record<string, readonly string[]>> = {
  'change the email or other profile details': [
    'change the email',
    'change my email',
    'update my email',
    'email address on my',
    'change my name',
    'change my phone',
    'phone number',
  ],
  'add a payment method': [
    'add a new credit card',
    'add a new card',
    'add my new card',
    'add it to my profile',
    'add a payment method',
    'new payment method',
    'new credit card',
    'add a gift card',
  ],
  'compensation or refund without a return': [
    'compensation',
    'partial refund',
    'refund without returning',
    'keep the items',
    'keep the item',
    'discount',
    'coupon',
    'price match',
  ],
  'place a new order': [
    'place a new order',
    'place an order',
    'new order for',
    'buy a new',
    'purchase a new',
    'order a new',
  ],
};

/** Requests the agent's own actions (or read-only lookups) handle, each with phrases a user asks them with. */
const inScope: Readonly<Record<string, readonly string[]>> = {
  'cancel a pending order': ['cancel'],
  'return items of a delivered order': ['return'],
  'exchange items of a delivered order': ['exchange', 'swap'],
  'modify a pending order': [
    'change the size',
    'change the color',
    'different size',
    'different color',
    'modify my order',
    'change the shipping address',
    'change the payment',
    'pay with',
    'change my order',
  ],
  'modify the default address': ['default address', 'change my address', 'update my address', 'i moved', 'new address'],
  'information about orders, profile or products': [
    'status',
    'where is my order',
    'track',
    'when will',
    'what did i order',
    'how much',
    'is it available',
    'in stock',
  ],
};

export const check: PolicyCheck<TransferToHumanAgentsArgs> = async (args, context) => {
  const outside = context.conversation.reasonGiven(outOfScope);
  if (outside.answer === 'yes') return undefined;

  const inside = context.conversation.reasonGiven(inScope);
  if (inside.answer === 'yes') {
    return {
      message:
        `The user's request (${inside.value ?? 'an order, return, exchange, address or information request'}) can be handled ` +
        `within the agent's actions, so it must not be transferred: handle it with the available tools, or tell the user it ` +
        `cannot be done under the policy.`,
      facts: { summary: args.summary, request_kind: inside.value, evidence: inside.evidence },
    };
  }

  return {
    message:
      `It is not clear that the user's request is outside the agent's actions (cancel or modify pending orders, return or ` +
      `exchange delivered orders, modify the default address, give information); transfer only when it cannot be handled.`,
    facts: { summary: args.summary, out_of_scope: outside.answer, in_scope: inside.answer },
    ask: `Is the user's request ("${args.summary}") something the agent's tools cannot handle, so that a transfer to a human agent is needed?`,
  };
};
