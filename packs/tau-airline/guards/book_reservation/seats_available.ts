/** `book.seats_available`: Each flight has at least as many available seats in the chosen cabin as there are passengers. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { findFlightOnDate, unbookable } from '../lib/airline.ts';
import { after, allOf } from '../lib/maybe.ts';

export const check: PolicyCheck<BookReservationArgs> = (args, context) =>
  after(allOf(args.flights.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date))), (found) => {
    for (let index = 0; index < args.flights.length; index++) {
      const flight = args.flights[index] as (typeof args.flights)[number];
      const details = found[index];
      if (details?.status !== 'available') continue;
      const problem = unbookable(details, flight.flight_number, flight.date, args.cabin, args.passengers.length);
      if (problem !== undefined) return { message: problem };
    }
    return undefined;
  });
