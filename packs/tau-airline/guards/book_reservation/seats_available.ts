/** `book.seats_available`: Each flight has at least as many available seats in the chosen cabin as there are passengers. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { findFlightOnDate, unbookable } from '../lib/airline.ts';

export const check: PolicyCheck<BookReservationArgs> = async (args, context) => {
  for (const flight of args.flights) {
    const details = await findFlightOnDate(context, flight.flight_number, flight.date);
    if (details?.status !== 'available') continue;
    const problem = unbookable(details, flight.flight_number, flight.date, args.cabin, args.passengers.length);
    if (problem !== undefined) return { message: problem };
  }
  return undefined;
};
