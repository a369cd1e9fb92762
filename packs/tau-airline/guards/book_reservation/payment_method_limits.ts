/** `book.payment_method_limits`: A booking uses at most one travel certificate, one credit card and three gift cards. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { findUser } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<BookReservationArgs> = (args, context) =>
  after(findUser(context, args.user_id), (user) => {
    if (user === undefined) return undefined;
    const counts = { certificate: 0, credit_card: 0, gift_card: 0 };
    for (const payment of args.payment_methods) {
      const method = user.payment_methods[payment.payment_id];
      if (method !== undefined) counts[method.source]++;
    }
    if (counts.certificate > 1 || counts.credit_card > 1 || counts.gift_card > 3) {
      return {
        message: `the payment uses ${counts.certificate} certificates, ${counts.credit_card} credit cards and ${counts.gift_card} gift cards: at most one certificate, one credit card and three gift cards`,
        facts: counts,
      };
    }
    return undefined;
  });
