/** Guards of `update_reservation_flights`: one check per atomic policy. */
import type { PolicyCheck } from 'agentguard';
import type { Reservation, UpdateReservationFlightsArgs } from '../types.ts';
import {
  findFlightOnDate,
  findReservation,
  findUser,
  itineraryProblem,
  ownerNotObtained,
  resolveLegs,
  unbookable,
  unconfirmed,
} from './lib/airline.ts';

function isKept(reservation: Reservation, flight: { flight_number: string; date: string }): boolean {
  return reservation.flights.some((kept) => kept.flight_number === flight.flight_number && kept.date === flight.date);
}

const userConfirmation: PolicyCheck<UpdateReservationFlightsArgs> = (args, context) => {
  const details = [args.reservation_id, ...args.flights.map((flight) => flight.flight_number)];
  return unconfirmed(
    context,
    'update_reservation_flights',
    { action: /\b(chang|modif|updat|upgrad|downgrad|switch|rebook)|\bcabin\b|\bflights?\b|\bpayment\b/, details },
    (past) => past.reservation_id === args.reservation_id,
  );
};

const userIdObtained: PolicyCheck<UpdateReservationFlightsArgs> = (args, context) =>
  ownerNotObtained(context, args.reservation_id);

const basicEconomyUnchanged: PolicyCheck<UpdateReservationFlightsArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation?.cabin !== 'basic_economy') return undefined;
  const same =
    args.flights.length === reservation.flights.length && args.flights.every((flight) => isKept(reservation, flight));
  return same
    ? undefined
    : { message: `reservation ${args.reservation_id} is basic economy: its flights cannot be changed, only its cabin` };
};

const sameRouteAndTripType: PolicyCheck<UpdateReservationFlightsArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation === undefined) return undefined;
  const { legs } = await resolveLegs(context, args.flights);
  const problem = itineraryProblem(legs, reservation.origin, reservation.destination, reservation.flight_type);
  return problem === undefined
    ? undefined
    : { message: `${problem}: the new flights must keep the reservation's origin, destination and trip type` };
};

const newFlightsBookable: PolicyCheck<UpdateReservationFlightsArgs> = async (args, context) => {
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

const paymentMethod: PolicyCheck<UpdateReservationFlightsArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation === undefined) return undefined;
  const user = await findUser(context, reservation.user_id);
  const method = user?.payment_methods[args.payment_id];
  if (method === undefined) return { message: `payment method ${args.payment_id} is not in the user's profile` };
  if (method.source !== 'gift_card' && method.source !== 'credit_card') {
    return { message: `payment method ${args.payment_id} is a ${method.source}: use one gift card or credit card` };
  }
  return undefined;
};

/** The checks of `update_reservation_flights` by policy id. */
export const checks = {
  'flights.user_confirmation': userConfirmation,
  'flights.user_id_obtained': userIdObtained,
  'flights.basic_economy_unchanged': basicEconomyUnchanged,
  'flights.same_route_and_trip_type': sameRouteAndTripType,
  'flights.new_flights_bookable': newFlightsBookable,
  'flights.payment_method': paymentMethod,
};
