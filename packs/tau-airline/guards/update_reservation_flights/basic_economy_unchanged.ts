/** `flights.basic_economy_unchanged`: The flights of a basic economy reservation cannot change; only its cabin can. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationFlightsArgs } from '../../types.ts';
import { findReservation, isKept } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<UpdateReservationFlightsArgs> = (args, context) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    if (reservation?.cabin !== 'basic_economy') return undefined;
    const same =
      args.flights.length === reservation.flights.length && args.flights.every((flight) => isKept(reservation, flight));
    return same
      ? undefined
      : {
          message: `reservation ${args.reservation_id} is basic economy: its flights cannot be changed, only its cabin`,
        };
  });
