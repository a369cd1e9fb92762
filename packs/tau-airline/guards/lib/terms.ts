/**
 * What each change charges and how it pays, from the call and lookups: the terms the user's yes must cover.
 */
import type { GuardContext } from 'agentguard';
import type { BookReservationArgs, UpdateReservationBaggagesArgs, UpdateReservationFlightsArgs } from '../../types.ts';
import type { CallTerms } from './agreement.ts';
import { findFlightOnDate, findReservation, findUser, isKept } from './airline.ts';

const termsCache = new WeakMap<GuardContext, Promise<CallTerms>>();

/** Terms computed once per decision: every policy of one call gets the same context. */
function once(context: GuardContext, compute: () => Promise<CallTerms>): Promise<CallTerms> {
  let terms = termsCache.get(context);
  if (terms === undefined) {
    terms = compute();
    termsCache.set(context, terms);
  }
  return terms;
}

/** A flight or cabin change: the fare difference for every passenger, as the tool computes it. */
export function flightChangeTerms(context: GuardContext, args: UpdateReservationFlightsArgs): Promise<CallTerms> {
  return once(context, () => computeFlightChangeTerms(context, args));
}

async function computeFlightChangeTerms(context: GuardContext, args: UpdateReservationFlightsArgs): Promise<CallTerms> {
  const reservation = await findReservation(context, args.reservation_id);
  const user = reservation === undefined ? undefined : await findUser(context, reservation.user_id);
  const passengers = reservation?.passengers.length ?? 0;
  const changedFlights: string[] = [];
  let charge: number | undefined;
  if (reservation !== undefined) {
    const kept = args.flights.map((flight) => args.cabin === reservation.cabin && isKept(reservation, flight));
    const details = await Promise.all(
      args.flights.map((flight, index) =>
        kept[index] ? undefined : findFlightOnDate(context, flight.flight_number, flight.date),
      ),
    );
    let total = -reservation.flights.reduce((sum, flight) => sum + flight.price, 0) * passengers;
    args.flights.forEach((flight, index) => {
      if (kept[index]) {
        const segment = reservation.flights.find((candidate) => candidate.flight_number === flight.flight_number);
        total += (segment?.price ?? 0) * passengers;
        return;
      }
      changedFlights.push(flight.flight_number);
      const found = details[index];
      total += found?.status === 'available' ? found.prices[args.cabin] * passengers : Number.NaN;
    });
    if (!Number.isNaN(total)) charge = total;
  }
  return {
    user,
    reservation,
    passengers,
    charge,
    payments: [{ id: args.payment_id }],
    changedFlights,
    flightNumbers: [
      ...(reservation?.flights.map((flight) => flight.flight_number) ?? []),
      ...args.flights.map((flight) => flight.flight_number),
    ],
  };
}

/** A bag change: 50 dollars per paid bag added. */
export function baggageTerms(context: GuardContext, args: UpdateReservationBaggagesArgs): Promise<CallTerms> {
  return once(context, () => computeBaggageTerms(context, args));
}

async function computeBaggageTerms(context: GuardContext, args: UpdateReservationBaggagesArgs): Promise<CallTerms> {
  const reservation = await findReservation(context, args.reservation_id);
  const user = reservation === undefined ? undefined : await findUser(context, reservation.user_id);
  return {
    user,
    reservation,
    passengers: reservation?.passengers.length ?? 0,
    charge:
      reservation === undefined ? undefined : 50 * Math.max(0, args.nonfree_baggages - reservation.nonfree_baggages),
    payments: [{ id: args.payment_id }],
    changedFlights: [],
    flightNumbers: [],
  };
}

/** A booking: what its payments add up to. */
export function bookingTerms(context: GuardContext, args: BookReservationArgs): Promise<CallTerms> {
  return once(context, () => computeBookingTerms(context, args));
}

async function computeBookingTerms(context: GuardContext, args: BookReservationArgs): Promise<CallTerms> {
  return {
    user: await findUser(context, args.user_id),
    reservation: undefined,
    passengers: args.passengers.length,
    charge: args.payment_methods.reduce((sum, payment) => sum + payment.amount, 0),
    payments: args.payment_methods.map((payment) => ({ id: payment.payment_id, amount: payment.amount })),
    changedFlights: args.flights.map((flight) => flight.flight_number),
    flightNumbers: args.flights.map((flight) => flight.flight_number),
  };
}
