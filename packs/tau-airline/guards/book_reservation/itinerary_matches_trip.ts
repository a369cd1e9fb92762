/** `book.itinerary_matches_trip`: The flights form the trip the user asked for: a connected chain from origin to destination for one way; out to the destination and back to the origin for a round trip. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { itineraryProblem, resolveLegs } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<BookReservationArgs> = (args, context) =>
  after(resolveLegs(context, args.flights), ({ legs }) => {
    const problem = itineraryProblem(legs, args.origin, args.destination, args.flight_type);
    return problem === undefined ? undefined : { message: problem };
  });
