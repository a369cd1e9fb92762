/**
 * Reading which payment method the user chose when their words name several, one for each of their requests. Written
 * in review.
 */
import type { GuardContext } from 'agentguard';
import type { GetUserDetailsResult } from '../../types.ts';
import { domain } from './domain-description.ts';

/** A payment method of the user's profile. */
export type PaymentMethodRecord = NonNullable<GetUserDetailsResult['payment_methods'][string]>;

/**
 * Whether the user chose `method` for the call of `tool` on order `orderId` although their words also name other
 * methods (for their other requests): they named it, and their latest message says yes to the agent's listing of this
 * call that names it.
 *
 * @example
 * ```ts
 * // "Exchange … via my credit card ending in 2340, and return … to my gift card." … "Return …, refund to gift_card_6566420?" "Yes."
 * chosenAmongOthers(context, 'return_delivered_order_items', '#W6174054', giftCard); // true
 * ```
 */
export function chosenAmongOthers(
  context: GuardContext,
  tool: string,
  orderId: string,
  method: PaymentMethodRecord,
  original?: string,
): boolean {
  const { conversation } = context;
  const agreement = conversation.agreed({
    tool,
    names: [method.id],
    sameTarget: (earlier) => earlier['order_id'] === orderId,
  });
  if (agreement.answer !== 'yes') return false;
  const roles = original === undefined ? {} : { roles: { original } };
  const named = conversation.stated(
    { value: method.id, kind: 'payment_method', records: [{ ...method }], ...roles },
    domain,
  );
  return named.answer === 'yes';
}
