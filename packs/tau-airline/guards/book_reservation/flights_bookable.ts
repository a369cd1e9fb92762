/** `book.flights_bookable`: Every flight booked has the status available on its date; delayed, on-time, flying, landed or cancelled flights cannot be booked. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { findFlightOnDate, unbookable } from '../lib/airline.ts';

export const check: PolicyCheck<BookReservationArgs> = async (args, context) => {
  for (const flight of args.flights) {
    const details = await findFlightOnDate(context, flight.flight_number, flight.date);
    if (details?.status !== 'available') {
      return { message: unbookable(details, flight.flight_number, flight.date, args.cabin, 0) ?? 'not bookable' };
    }
  }
  return undefined;
};
