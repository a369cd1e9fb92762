/** Guards of `book_reservation`: one check per atomic policy. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../types.ts';
import {
  findFlightOnDate,
  findUser,
  incompletePassenger,
  itineraryProblem,
  paidBagsProblem,
  resolveLegs,
  unbookable,
  unconfirmed,
  userMentioned,
} from './lib/airline.ts';

const userConfirmation: PolicyCheck<BookReservationArgs> = (args, context) => {
  const details = args.flights.map((flight) => flight.flight_number);
  return unconfirmed(
    context,
    'book_reservation',
    { action: /\bbook|\breservation\b|\bpayment\b|\bpurchase/, details },
    (past) => {
      const flights = past.flights as { flight_number?: unknown }[] | undefined;
      return JSON.stringify(flights?.map((flight) => flight.flight_number)) === JSON.stringify(details);
    },
  );
};

const userIdObtained: PolicyCheck<BookReservationArgs> = async (args, context) => {
  if ((await findUser(context, args.user_id)) === undefined) return { message: `user ${args.user_id} does not exist` };
  if (!userMentioned(context, args.user_id)) return { message: `the user has not given the user id ${args.user_id}` };
  return undefined;
};

const flightsBookable: PolicyCheck<BookReservationArgs> = async (args, context) => {
  for (const flight of args.flights) {
    const details = await findFlightOnDate(context, flight.flight_number, flight.date);
    if (details?.status !== 'available') {
      return { message: unbookable(details, flight.flight_number, flight.date, args.cabin, 0) ?? 'not bookable' };
    }
  }
  return undefined;
};

const seatsAvailable: PolicyCheck<BookReservationArgs> = async (args, context) => {
  for (const flight of args.flights) {
    const details = await findFlightOnDate(context, flight.flight_number, flight.date);
    if (details?.status !== 'available') continue;
    const problem = unbookable(details, flight.flight_number, flight.date, args.cabin, args.passengers.length);
    if (problem !== undefined) return { message: problem };
  }
  return undefined;
};

const itineraryMatchesTrip: PolicyCheck<BookReservationArgs> = async (args, context) => {
  const { legs } = await resolveLegs(context, args.flights);
  const problem = itineraryProblem(legs, args.origin, args.destination, args.flight_type);
  return problem === undefined ? undefined : { message: problem };
};

const maxPassengers: PolicyCheck<BookReservationArgs> = (args) =>
  args.passengers.length > 5
    ? { message: `${args.passengers.length} passengers: a reservation can have at most five` }
    : undefined;

const passengerDetails: PolicyCheck<BookReservationArgs> = (args) => incompletePassenger(args.passengers);

const paymentInProfile: PolicyCheck<BookReservationArgs> = async (args, context) => {
  const user = await findUser(context, args.user_id);
  if (user === undefined) return undefined;
  const missing = args.payment_methods.filter((payment) => user.payment_methods[payment.payment_id] === undefined);
  return missing.length === 0
    ? undefined
    : {
        message: `payment method ${missing.map((payment) => payment.payment_id).join(', ')} is not in the user's profile`,
      };
};

const paymentMethodLimits: PolicyCheck<BookReservationArgs> = async (args, context) => {
  const user = await findUser(context, args.user_id);
  if (user === undefined) return undefined;
  const counts = { certificate: 0, credit_card: 0, gift_card: 0 };
  for (const payment of args.payment_methods) {
    const method = user.payment_methods[payment.payment_id];
    if (method !== undefined) counts[method.source]++;
  }
  if (counts.certificate > 1 || counts.credit_card > 1 || counts.gift_card > 3) {
    return {
      message: `the payment uses ${counts.certificate} certificates, ${counts.credit_card} credit cards and ${counts.gift_card} gift cards: at most one certificate, one credit card and three gift cards`,
      facts: counts,
    };
  }
  return undefined;
};

const paymentTotal: PolicyCheck<BookReservationArgs> = async (args, context) => {
  const passengers = args.passengers.length;
  let total = 0;
  for (const flight of args.flights) {
    const details = await findFlightOnDate(context, flight.flight_number, flight.date);
    if (details?.status !== 'available') return undefined;
    total += details.prices[args.cabin] * passengers;
  }
  if (args.insurance === 'yes') total += 30 * passengers;
  total += 50 * args.nonfree_baggages;
  const paid = args.payment_methods.reduce((sum, payment) => sum + payment.amount, 0);
  return paid === total
    ? undefined
    : { message: `the payments add up to ${paid} but the booking costs ${total}`, facts: { total, paid } };
};

const baggageAllowance: PolicyCheck<BookReservationArgs> = async (args, context) => {
  const user = await findUser(context, args.user_id);
  if (user === undefined) return undefined;
  return paidBagsProblem(
    user.membership,
    args.cabin,
    args.passengers.length,
    args.total_baggages,
    args.nonfree_baggages,
  );
};

const insuranceOffered: PolicyCheck<BookReservationArgs> = (_args, context) => {
  const mentioned = context.conversation.messages.some(
    (message) => (message.role === 'assistant' || message.role === 'user') && /insurance/i.test(message.text),
  );
  return mentioned ? undefined : { message: 'the agent has not asked whether the user wants travel insurance' };
};

/** The checks of `book_reservation` by policy id. */
export const checks = {
  'book.user_confirmation': userConfirmation,
  'book.user_id_obtained': userIdObtained,
  'book.flights_bookable': flightsBookable,
  'book.seats_available': seatsAvailable,
  'book.itinerary_matches_trip': itineraryMatchesTrip,
  'book.max_passengers': maxPassengers,
  'book.passenger_details': passengerDetails,
  'book.payment_in_profile': paymentInProfile,
  'book.payment_method_limits': paymentMethodLimits,
  'book.payment_total': paymentTotal,
  'book.baggage_allowance': baggageAllowance,
  'book.insurance_offered': insuranceOffered,
};
