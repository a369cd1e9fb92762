/** `book.user_confirmation`: Before booking a reservation, the agent lists the action details and the user answers with an explicit yes. One yes covers the actions it was given for, once. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { bookingAction, unconfirmed } from '../lib/agreement.ts';
import { after } from '../lib/maybe.ts';
import { bookingTerms } from '../lib/terms.ts';

export const check: PolicyCheck<BookReservationArgs> = (args, context, call) => {
  const details = args.flights.map((flight) => flight.flight_number);
  return after(bookingTerms(context, args), (terms) =>
    unconfirmed(
      context,
      call,
      { action: bookingAction, details },
      (past) => {
        const flights = past.flights as { flight_number?: unknown }[] | undefined;
        return JSON.stringify(flights?.map((flight) => flight.flight_number)) === JSON.stringify(details);
      },
      terms,
    ),
  );
};
