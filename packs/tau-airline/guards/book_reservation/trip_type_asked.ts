/** `book.trip_type_asked`: The trip type booked is the one the user asked for: named by the user, or in a proposal the user said yes to. Another trip type named refuses; none named asks the user. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { bookingAction, decidedBy } from '../lib/agreement.ts';
import { domain, tripTypes } from '../lib/domain-description.ts';

const tripWords = { one_way: 'one way', round_trip: 'round trip' } as const;

export const check: PolicyCheck<BookReservationArgs> = (args, context) => {
  const value = { value: args.flight_type, kind: 'trip_type', records: tripTypes };
  const stated = context.conversation.stated(value, domain);
  if (stated.answer === 'yes') return undefined;
  const booking = {
    tool: 'book_reservation',
    names: args.flights.map((flight) => flight.flight_number),
    action: bookingAction,
  };
  const agreed = context.conversation.agreed(booking, { values: [value], domain }).values?.[0];
  const fact = agreed === undefined || agreed.answer === 'unsure' ? stated : agreed;
  const trip = tripWords[args.flight_type];
  if (fact.answer === 'yes') return undefined;
  if (fact.answer === 'no') {
    return {
      message: `the user asked for another trip type than ${trip}${decidedBy(fact)}; book the trip type the user asked for`,
    };
  }
  return {
    message: `nobody named the trip type, and the call books it ${trip}; ask the user whether the trip is one way or round trip`,
    ask: `Is the trip ${trip}?`,
  };
};
