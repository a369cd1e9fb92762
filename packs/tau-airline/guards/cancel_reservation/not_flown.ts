/** `cancel.not_flown`: A reservation can be cancelled only if none of its segments has been flown or is in the air. */
import type { PolicyCheck } from 'agentguard';
import type { CancelReservationArgs } from '../../types.ts';
import { findFlightOnDate, findReservation, isFlown } from '../lib/airline.ts';
import { after, allOf } from '../lib/maybe.ts';

export const check: PolicyCheck<CancelReservationArgs> = (args, context) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    if (reservation === undefined) return undefined;
    const segments = reservation.flights.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date));
    return after(allOf(segments), (found) => {
      for (let index = 0; index < reservation.flights.length; index++) {
        const flight = reservation.flights[index] as (typeof reservation.flights)[number];
        const segment = found[index];
        if (isFlown(segment)) {
          return {
            message: `segment ${flight.flight_number} on ${flight.date} is ${segment?.status}: a trip with a used segment cannot be cancelled`,
            facts: { flight_number: flight.flight_number, date: flight.date, status: segment?.status },
          };
        }
      }
      return undefined;
    });
  });
