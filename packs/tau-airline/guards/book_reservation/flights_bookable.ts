/** `book.flights_bookable`: Every flight booked has the status available on its date; delayed, on-time, flying, landed or cancelled flights cannot be booked. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { findFlightOnDate, unbookable } from '../lib/airline.ts';
import { after, allOf } from '../lib/maybe.ts';

export const check: PolicyCheck<BookReservationArgs> = (args, context) =>
  after(allOf(args.flights.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date))), (found) => {
    for (let index = 0; index < args.flights.length; index++) {
      const flight = args.flights[index] as (typeof args.flights)[number];
      const details = found[index];
      if (details?.status !== 'available') {
        return { message: unbookable(details, flight.flight_number, flight.date, args.cabin, 0) ?? 'not bookable' };
      }
    }
    return undefined;
  });
