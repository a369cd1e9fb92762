/**
 * What each change charges and how it pays, from the call and lookups: the terms the user's yes must cover.
 */
import type { GuardContext } from 'agentguard';
import type { BookReservationArgs, UpdateReservationBaggagesArgs, UpdateReservationFlightsArgs } from '../../types.ts';
import type { CallTerms } from './agreement.ts';
import { findFlightOnDate, findReservation, findUser, isKept } from './airline.ts';
import { rememberedLast } from './last.ts';
import { after, allOf, type Maybe } from './maybe.ts';
import type { FlightOnDate, Reservation, User } from './records.ts';

const termsOf = rememberedLast((_context: GuardContext): { terms?: Maybe<CallTerms> } => ({}));

/** Terms computed once per decision: every policy of one call gets the same context. */
function once(context: GuardContext, compute: () => Maybe<CallTerms>): Maybe<CallTerms> {
  const slot = termsOf(context);
  slot.terms ??= compute();
  return slot.terms;
}

/** A flight or cabin change: the fare difference for every passenger, as the tool computes it. */
export function flightChangeTerms(context: GuardContext, args: UpdateReservationFlightsArgs): Maybe<CallTerms> {
  return once(context, () =>
    after(findReservation(context, args.reservation_id), (reservation) =>
      reservation === undefined
        ? flightChangeTermsOf(args, undefined, undefined, [])
        : after(findUser(context, reservation.user_id), (user) =>
            after(
              allOf(
                args.flights.map((flight) =>
                  isUnchanged(args, reservation, flight)
                    ? undefined
                    : findFlightOnDate(context, flight.flight_number, flight.date),
                ),
              ),
              (details) => flightChangeTermsOf(args, reservation, user, details),
            ),
          ),
    ),
  );
}

/** Whether a flight of the call is a segment the reservation keeps as it is (same flight, date and cabin). */
function isUnchanged(
  args: UpdateReservationFlightsArgs,
  reservation: Reservation,
  flight: { flight_number: string; date: string },
): boolean {
  return args.cabin === reservation.cabin && isKept(reservation, flight);
}

/** The terms of a flight change from its lookups: the new flights' details, undefined for kept segments. */
function flightChangeTermsOf(
  args: UpdateReservationFlightsArgs,
  reservation: Reservation | undefined,
  user: User | undefined,
  details: readonly (FlightOnDate | undefined)[],
): CallTerms {
  const passengers = reservation?.passengers.length ?? 0;
  const changedFlights: string[] = [];
  const flightNumbers: string[] = [];
  let charge: number | undefined;
  if (reservation !== undefined) {
    let paid = 0;
    for (const flight of reservation.flights) {
      paid += flight.price;
      flightNumbers.push(flight.flight_number);
    }
    let total = -paid * passengers;
    for (let index = 0; index < args.flights.length; index++) {
      const flight = args.flights[index] as (typeof args.flights)[number];
      if (isUnchanged(args, reservation, flight)) {
        const segment = reservation.flights.find((candidate) => candidate.flight_number === flight.flight_number);
        total += (segment?.price ?? 0) * passengers;
        continue;
      }
      changedFlights.push(flight.flight_number);
      const found = details[index];
      total += found?.status === 'available' ? found.prices[args.cabin] * passengers : Number.NaN;
    }
    if (!Number.isNaN(total)) charge = total;
  }
  for (const flight of args.flights) flightNumbers.push(flight.flight_number);
  return { user, reservation, passengers, charge, payments: [{ id: args.payment_id }], changedFlights, flightNumbers };
}

/** A bag change: 50 dollars per paid bag added. */
export function baggageTerms(context: GuardContext, args: UpdateReservationBaggagesArgs): Maybe<CallTerms> {
  return once(context, () =>
    after(findReservation(context, args.reservation_id), (reservation) =>
      after(reservation === undefined ? undefined : findUser(context, reservation.user_id), (user) => ({
        user,
        reservation,
        passengers: reservation?.passengers.length ?? 0,
        charge:
          reservation === undefined
            ? undefined
            : 50 * Math.max(0, args.nonfree_baggages - reservation.nonfree_baggages),
        payments: [{ id: args.payment_id }],
        changedFlights: [],
        flightNumbers: [],
      })),
    ),
  );
}

/** A booking: what its payments add up to. */
export function bookingTerms(context: GuardContext, args: BookReservationArgs): Maybe<CallTerms> {
  return once(context, () =>
    after(findUser(context, args.user_id), (user) => ({
      user,
      reservation: undefined,
      passengers: args.passengers.length,
      charge: args.payment_methods.reduce((sum, payment) => sum + payment.amount, 0),
      payments: args.payment_methods.map((payment) => ({ id: payment.payment_id, amount: payment.amount })),
      changedFlights: args.flights.map((flight) => flight.flight_number),
      flightNumbers: args.flights.map((flight) => flight.flight_number),
    })),
  );
}
