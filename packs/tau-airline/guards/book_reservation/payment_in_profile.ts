/** `book.payment_in_profile`: Every payment method is stored in the booking user's profile. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { findUser } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<BookReservationArgs> = (args, context) =>
  after(findUser(context, args.user_id), (user) => {
    if (user === undefined) return undefined;
    const missing = args.payment_methods.filter((payment) => user.payment_methods[payment.payment_id] === undefined);
    return missing.length === 0
      ? undefined
      : {
          message: `payment method ${missing.map((payment) => payment.payment_id).join(', ')} is not in the user's profile`,
        };
  });
