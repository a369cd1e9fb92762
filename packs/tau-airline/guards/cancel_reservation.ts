/** Guards of `cancel_reservation`: one check per atomic policy. */
import type { PolicyCheck } from 'agentguard';
import type { CancelReservationArgs } from '../types.ts';
import {
  estTime,
  findFlightOnDate,
  findReservation,
  isFlown,
  ownerNotObtained,
  reasonGiven,
  statedReasons,
  unconfirmed,
} from './lib/airline.ts';

const dayMs = 24 * 60 * 60 * 1000;

const userConfirmation: PolicyCheck<CancelReservationArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  const details = [args.reservation_id, ...(reservation?.flights.map((flight) => flight.flight_number) ?? [])];
  return unconfirmed(
    context,
    'cancel_reservation',
    { action: /\bcancel/, details },
    (past) => past.reservation_id === args.reservation_id,
  );
};

const userIdObtained: PolicyCheck<CancelReservationArgs> = (args, context) =>
  ownerNotObtained(context, args.reservation_id);

const reasonObtained: PolicyCheck<CancelReservationArgs> = (_args, context) => {
  if (reasonGiven(context)) return undefined;
  return {
    message:
      'the user has not said why they cancel: ask for the reason (change of plan, airline cancelled flight, or other)',
  };
};

const eligibility: PolicyCheck<CancelReservationArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation === undefined) return undefined;
  const bookedAgo = context.now.getTime() - estTime(reservation.created_at);
  if (bookedAgo <= dayMs) return undefined;
  if (reservation.cabin === 'business') return undefined;
  const segments = await Promise.all(
    reservation.flights.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date)),
  );
  if (segments.some((segment) => segment?.status === 'cancelled')) return undefined;
  const reasons = statedReasons(context);
  const covered = reasons.includes('health') || reasons.includes('weather');
  if (reservation.insurance === 'yes' && covered) return undefined;
  const why =
    reservation.insurance === 'yes'
      ? 'the user has travel insurance but gave no health or weather reason'
      : 'the user has no travel insurance';
  return {
    message: `reservation ${args.reservation_id} (${reservation.cabin}, booked ${reservation.created_at}) cannot be cancelled: it was booked more than 24 hours ago, no flight was cancelled by the airline, it is not business, and ${why}`,
    facts: { cabin: reservation.cabin, created_at: reservation.created_at, insurance: reservation.insurance, reasons },
  };
};

const notFlown: PolicyCheck<CancelReservationArgs> = async (args, context) => {
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

/** The checks of `cancel_reservation` by policy id. */
export const checks = {
  'cancel.user_confirmation': userConfirmation,
  'cancel.user_id_obtained': userIdObtained,
  'cancel.reason_obtained': reasonObtained,
  'cancel.eligibility': eligibility,
  'cancel.not_flown': notFlown,
};
