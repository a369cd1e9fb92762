/** `flights.new_flights_bookable`: Every flight that is new, or re-booked in another cabin, is available on its date with seats for every passenger. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationFlightsArgs } from '../../types.ts';
import { findFlightOnDate, findReservation, isKept, unbookable } from '../lib/airline.ts';
import { after, allOf } from '../lib/maybe.ts';

export const check: PolicyCheck<UpdateReservationFlightsArgs> = (args, context) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    if (reservation === undefined) return undefined;
    const booked = args.flights.filter((flight) => !isKept(reservation, flight) || args.cabin !== reservation.cabin);
    const details = booked.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date));
    return after(allOf(details), (found) => {
      for (let index = 0; index < booked.length; index++) {
        const flight = booked[index] as (typeof booked)[number];
        const problem = unbookable(
          found[index],
          flight.flight_number,
          flight.date,
          args.cabin,
          reservation.passengers.length,
        );
        if (problem !== undefined) {
          const note = isKept(reservation, flight) ? ' (a cabin change re-books every segment, kept ones too)' : '';
          return { message: `${problem}${note}` };
        }
      }
      return undefined;
    });
  });
