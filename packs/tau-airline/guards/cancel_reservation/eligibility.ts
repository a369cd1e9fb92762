/** `cancel.eligibility`: A reservation can be cancelled if it was booked within the last 24 hours, if the airline cancelled one of its flights, if it is business, or if it has travel insurance and the user cancels for health or weather reasons. Membership does not change this. */
import type { PolicyCheck } from 'agentguard';
import type { CancelReservationArgs } from '../../types.ts';
import { coveredReason, estTime, findFlightOnDate, findReservation, reasonGiven } from '../lib/airline.ts';
import { after, allOf } from '../lib/maybe.ts';

const dayMs = 24 * 60 * 60 * 1000;

export const check: PolicyCheck<CancelReservationArgs> = (args, context) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    if (reservation === undefined) return undefined;
    const bookedAgo = context.now.getTime() - estTime(reservation.created_at);
    if (bookedAgo <= dayMs) return undefined;
    if (reservation.cabin === 'business') return undefined;
    const segments = reservation.flights.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date));
    return after(allOf(segments), (found) => {
      if (found.some((segment) => segment?.status === 'cancelled')) return undefined;
      const reason = coveredReason(context);
      if (reservation.insurance === 'yes' && reason.answer === 'yes') return undefined;
      const why =
        reservation.insurance === 'yes'
          ? 'the user has travel insurance but gave no health or weather reason'
          : 'the user has no travel insurance';
      return {
        message: `reservation ${args.reservation_id} (${reservation.cabin}, booked ${reservation.created_at}) cannot be cancelled: it was booked more than 24 hours ago, no flight was cancelled by the airline, it is not business, and ${why}`,
        facts: {
          cabin: reservation.cabin,
          created_at: reservation.created_at,
          insurance: reservation.insurance,
          reason: reasonGiven(context).value ?? null,
        },
      };
    });
  });
