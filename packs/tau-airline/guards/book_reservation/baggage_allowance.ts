/** `book.baggage_allowance`: The number of paid bags is the total bags minus the free allowance of the booking user's tier for the cabin and passengers, and never below zero. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { findUser, paidBagsProblem } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<BookReservationArgs> = (args, context) =>
  after(findUser(context, args.user_id), (user) => {
    if (user === undefined) return undefined;
    return paidBagsProblem(
      user.membership,
      args.cabin,
      args.passengers.length,
      args.total_baggages,
      args.nonfree_baggages,
    );
  });
