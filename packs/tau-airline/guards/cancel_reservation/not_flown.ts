/** `cancel.not_flown`: A reservation can be cancelled only if none of its segments has been flown or is in the air. */
import type { PolicyCheck } from 'agentguard';
import type { CancelReservationArgs } from '../../types.ts';
import { findFlightOnDate, findReservation, isFlown } from '../lib/airline.ts';

export const check: PolicyCheck<CancelReservationArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation === undefined) return undefined;
  for (const flight of reservation.flights) {
    const segment = await findFlightOnDate(context, flight.flight_number, flight.date);
    if (isFlown(segment)) {
      return {
        message: `segment ${flight.flight_number} on ${flight.date} is ${segment?.status}: a trip with a used segment cannot be cancelled`,
        facts: { flight_number: flight.flight_number, date: flight.date, status: segment?.status },
      };
    }
  }
  return undefined;
};
