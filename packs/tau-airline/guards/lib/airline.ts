/**
 * Facts the airline guards share: lookups, the bag allowance, itineraries and what the conversation establishes.
 */
import type { GuardContext, PolicyFinding, ToolInvoker, ValueFact } from 'agentguard';
import { cancellationReasons, insuredReasons } from './domain-description.ts';
import { rememberedBy, rememberedLast } from './last.ts';
import { after, allOf, type Maybe } from './maybe.ts';
import type { Cabin, FlightOnDate, FlightType, Membership, Passenger, Reservation, User } from './records.ts';

/** The clock of the data: naive times are EST. Each time is parsed once (the same reservations are read again). */
export const estTime = rememberedBy((naive: string): number => Date.parse(`${naive}-05:00`));

/** One lookup of the decision in progress and its answer. */
interface Answer {
  tool: string;
  id: string;
  date: string;
  value: Maybe<unknown>;
}

/** The lookups of the decision in progress: a decision makes a handful, so a list is searched faster than a map. */
const answersOf = rememberedLast((_context: GuardContext): Answer[] => []);

/**
 * Runs a lookup once per decision: the runtime hands every policy of one call the same context, and the state cannot
 * change while the call is decided. Answers at once when the invoker can (`invokeNow`). A lookup that fails yields
 * undefined. `args` makes the lookup's arguments from `id` and `date`.
 */
function lookup<Value>(
  context: GuardContext,
  tool: string,
  id: string,
  date: string,
  args: (id: string, date: string) => Record<string, string>,
): Maybe<Value | undefined> {
  const answers = answersOf(context);
  for (const answer of answers) {
    if (answer.id === id && answer.tool === tool && answer.date === date)
      return answer.value as Maybe<Value | undefined>;
  }
  const value = ask(context.invoker, tool, args(id, date));
  answers.push({ tool, id, date, value });
  return value as Maybe<Value | undefined>;
}

function ask(invoker: ToolInvoker, tool: string, args: Record<string, string>): Maybe<unknown> {
  if (invoker.invokeNow === undefined) return invoker.invoke(tool, args).catch(() => undefined);
  try {
    return invoker.invokeNow(tool, args);
  } catch {
    return undefined;
  }
}

const userArgs = (id: string) => ({ user_id: id });
const reservationArgs = (id: string) => ({ reservation_id: id });
const flightArgs = (number: string, date: string) => ({ flight_number: number, date });

/** Looks up a user; undefined when there is none. */
export function findUser(context: GuardContext, userId: string): Maybe<User | undefined> {
  return lookup(context, 'get_user_details', userId, '', userArgs);
}

/** Looks up a reservation; undefined when there is none. */
export function findReservation(context: GuardContext, reservationId: string): Maybe<Reservation | undefined> {
  return lookup(context, 'get_reservation_details', reservationId, '', reservationArgs);
}

/** Looks up one flight on one date; undefined when the flight does not operate then. */
export function findFlightOnDate(
  context: GuardContext,
  flightNumber: string,
  date: string,
): Maybe<FlightOnDate | undefined> {
  return lookup(context, 'get_flight_on_date_details', flightNumber, date, flightArgs);
}

const freeBags: Record<Membership, Record<Cabin, number>> = {
  regular: { basic_economy: 0, economy: 1, business: 2 },
  silver: { basic_economy: 1, economy: 2, business: 3 },
  gold: { basic_economy: 2, economy: 3, business: 3 },
};

/**
 * Checks that the paid bags are exactly the bags beyond the free allowance of the booking user's tier for the cabin
 * and the number of passengers.
 */
export function paidBagsProblem(
  membership: Membership,
  cabin: Cabin,
  passengers: number,
  total: number,
  paid: number,
): PolicyFinding | undefined {
  const free = freeBags[membership][cabin] * passengers;
  const expected = Math.max(0, total - free);
  if (paid === expected) return undefined;
  return {
    message: `${total} bags with ${free} free (${membership}, ${cabin}, ${passengers} passengers) means ${expected} paid bags, not ${paid}`,
    facts: { free, expected },
  };
}

/** Why a flight on a date cannot be booked, or undefined when it can for `passengers` in `cabin`. */
export function unbookable(
  flight: FlightOnDate | undefined,
  number: string,
  date: string,
  cabin: Cabin,
  passengers: number,
) {
  if (flight === undefined) return `flight ${number} does not operate on ${date}`;
  if (flight.status !== 'available') return `flight ${number} on ${date} is ${flight.status} and cannot be booked`;
  const seats = flight.available_seats[cabin];
  if (seats < passengers)
    return `flight ${number} on ${date} has ${seats} ${cabin} seats left for ${passengers} passengers`;
  return undefined;
}

/** Whether a segment has been flown or is in the air. */
export function isFlown(flight: FlightOnDate | undefined): boolean {
  return flight?.status === 'landed' || flight?.status === 'flying';
}

/** A leg of an itinerary with its airports. */
export interface Leg {
  flight_number: string;
  date: string;
  origin: string;
  destination: string;
}

/** Whether `legs[start]` to `legs[end - 1]` connect `from` to `to`, each leg leaving where and no earlier than the last ended. */
function chains(legs: readonly Leg[], start: number, end: number, from: string, to: string): boolean {
  if (end <= start || legs[start]?.origin !== from || legs[end - 1]?.destination !== to) return false;
  for (let index = start + 1; index < end; index++) {
    const previous = legs[index - 1] as Leg;
    const leg = legs[index] as Leg;
    if (previous.destination !== leg.origin || previous.date > leg.date) return false;
  }
  return true;
}

/**
 * Why legs do not make the trip `origin` → `destination` of `flightType` (one way: one connected chain; round trip: a
 * chain out and a chain back), or undefined when they do.
 */
export function itineraryProblem(legs: readonly Leg[], origin: string, destination: string, flightType: FlightType) {
  const route = () =>
    legs.map((leg) => `${leg.flight_number} ${leg.origin}-${leg.destination} on ${leg.date}`).join(', ');
  if (flightType === 'one_way') {
    return chains(legs, 0, legs.length, origin, destination)
      ? undefined
      : `the flights (${route()}) are not a one-way trip ${origin} to ${destination}`;
  }
  for (let split = 1; split < legs.length; split++) {
    if (
      chains(legs, 0, split, origin, destination) &&
      chains(legs, split, legs.length, destination, origin) &&
      (legs[split - 1] as Leg).date <= (legs[split] as Leg).date
    ) {
      return undefined;
    }
  }
  return `the flights (${route()}) are not a round trip ${origin} to ${destination} and back`;
}

/** Resolves the airports of requested flights; the message of the first flight that cannot be found otherwise. */
export function resolveLegs(
  context: GuardContext,
  flights: readonly { flight_number: string; date: string }[],
): Maybe<{ legs: Leg[]; details: (FlightOnDate | undefined)[] }> {
  return after(
    allOf(flights.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date))),
    (details) => ({
      legs: flights.map((flight, index) => ({
        flight_number: flight.flight_number,
        date: flight.date,
        origin: details[index]?.origin ?? '?',
        destination: details[index]?.destination ?? '?',
      })),
      details,
    }),
  );
}

/** Whether the user stated `text` (an id, case aside, as whole words) anywhere in the conversation. */
export function userMentioned(context: GuardContext, text: string): boolean {
  return context.conversation.stated({ value: text }).answer === 'yes';
}

/** Whether the user gave a reason for cancelling that travel insurance covers (health or weather), and which. */
export function coveredReason(context: GuardContext): ValueFact {
  return context.conversation.reasonGiven(insuredReasons);
}

/**
 * Whether the user gave a reason for cancelling: one of the reasons the pack lists, or an answer to the agent's
 * question for the reason; `no` when the user declined to give one.
 */
export function reasonGiven(context: GuardContext): ValueFact {
  return context.conversation.reasonGiven(cancellationReasons, { asked: ['reason', 'reasons'] });
}

/** Checks that the reservation exists and that the user gave the user id that owns it. */
export function ownerNotObtained(context: GuardContext, reservationId: string): Maybe<PolicyFinding | undefined> {
  return after(findReservation(context, reservationId), (reservation) => {
    if (reservation === undefined) return { message: `reservation ${reservationId} does not exist` };
    if (!userMentioned(context, reservation.user_id)) {
      return {
        message: `the user has not given the user id that owns reservation ${reservationId}`,
        facts: { owner: reservation.user_id },
      };
    }
    return undefined;
  });
}

/** Checks that every passenger has a first name, a last name and a date of birth. */
export function incompletePassenger(passengers: readonly Passenger[]): PolicyFinding | undefined {
  const index = passengers.findIndex(
    (passenger) =>
      passenger.first_name.trim() === '' ||
      passenger.last_name.trim() === '' ||
      !/^\d{4}-\d{2}-\d{2}$/.test(passenger.dob),
  );
  return index === -1
    ? undefined
    : { message: `passenger ${index + 1} lacks a first name, last name or date of birth (YYYY-MM-DD)` };
}

/** Whether a flight of a call is a segment the reservation already has (same number and date). */
export function isKept(reservation: Reservation, flight: { flight_number: string; date: string }): boolean {
  return reservation.flights.some((kept) => kept.flight_number === flight.flight_number && kept.date === flight.date);
}
