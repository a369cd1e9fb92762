/** `flights.new_flights_bookable`: Every flight that is new, or re-booked in another cabin, is available on its date with seats for every passenger. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationFlightsArgs } from '../../types.ts';
import { findFlightOnDate, findReservation, isKept, unbookable } from '../lib/airline.ts';

export const check: PolicyCheck<UpdateReservationFlightsArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation === undefined) return undefined;
  for (const flight of args.flights) {
    if (isKept(reservation, flight) && args.cabin === reservation.cabin) continue;
    const details = await findFlightOnDate(context, flight.flight_number, flight.date);
    const problem = unbookable(details, flight.flight_number, flight.date, args.cabin, reservation.passengers.length);
    if (problem !== undefined) {
      const note = isKept(reservation, flight) ? ' (a cabin change re-books every segment, kept ones too)' : '';
      return { message: `${problem}${note}` };
    }
  }
  return undefined;
};
