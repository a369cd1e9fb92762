/**
 * Facts the airline guards share: lookups, the bag allowance, itineraries and what the conversation establishes.
 */
import type { GuardContext, PolicyFinding, ToolInvoker } from 'agentguard';
import { type CallTerms, contradiction, findAgreement, rejected, unsettled } from './agreement.ts';
import { domain } from './domain-description.ts';
import { rememberedLast } from './last.ts';
import { after, allOf, type Maybe } from './maybe.ts';
import { type CancellationReason, cancellationReasons, type MessageReading, readMessage } from './reading.ts';
import type { Cabin, FlightOnDate, FlightType, Membership, Passenger, Reservation, User } from './records.ts';
import { rememberedBy } from './text.ts';

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

/** What a confirmation must be about: words that name the action, and details of the call. */
export interface ActionDescription {
  /** Words that name the action, e.g. /\bcancel/ for a cancellation. */
  action: RegExp;
  /** Details of the call (ids, flight numbers); naming one also ties the proposal to the action. */
  details: readonly string[];
}

/** When the user's last message reads as no, the words that decided it, to tell the agent; else nothing. */
function readAsNo(context: GuardContext): string {
  const reply = context.conversation.answerAt(context.conversation.lastUserIndex());
  if (reply?.answer !== 'no') return '';
  return ` (the user's last message reads as no: ${reply.words.map((word) => `"${word}"`).join(', ')})`;
}

/**
 * Checks that the user explicitly confirmed this call: the last user message is an explicit yes (or a corrected
 * choice after the tool rejected the call that yes was given for); the yes answers an assistant message that asks
 * for confirmation and names the action or one of its details, or corrects a call of this tool that the tool
 * rejected; the yes was not already used for the same action on the same target; and, when `terms` are given, the
 * call does no more than the user agreed to (see `contradiction`).
 */
export function unconfirmed(
  context: GuardContext,
  call: { name: string; arguments: Record<string, unknown> },
  { action, details }: ActionDescription,
  sameTarget: (args: Record<string, unknown>) => boolean,
  terms?: CallTerms,
): PolicyFinding | undefined {
  const agreement = findAgreement(context, call.name, call.arguments);
  if (agreement === undefined) {
    return {
      message: `the user has not explicitly confirmed this action${readAsNo(context)}: list the action details and ask for a yes first`,
    };
  }
  if (!agreement.proposalAsks && !agreement.continuesRejected) {
    return {
      message:
        "the user's yes does not answer a request for confirmation: list the action details and ask for a yes first",
    };
  }
  const { proposal } = agreement;
  const named = details.some((detail) => detail !== '' && proposal.mentions(detail));
  if (!proposal.matches(action) && !named && !agreement.continuesRejected) {
    return {
      message:
        'the message the user said yes to is not about this action: list the action details and ask for a yes first',
    };
  }
  const reused = agreement.callsSince.find(
    (past) =>
      past.call.name === call.name && !rejected(past) && past.result !== undefined && sameTarget(past.call.arguments),
  );
  if (reused !== undefined) {
    return {
      message: `the user's yes was already used for an earlier \`${call.name}\` call on the same target: ask again before another change`,
    };
  }
  const problem = terms === undefined ? undefined : contradiction(agreement, terms);
  return problem === undefined ? undefined : { message: problem };
}

/**
 * The question to put to the user when the conversation does not settle what a confirmed call charges or how it
 * pays; undefined when it does, or when there is no yes at all (the confirmation policy denies that).
 */
export function paymentUnsettled(
  context: GuardContext,
  call: { name: string; arguments: Record<string, unknown> },
  terms: CallTerms,
): PolicyFinding | undefined {
  const agreement = findAgreement(context, call.name, call.arguments);
  if (agreement === undefined) return undefined;
  const { user, reservation } = terms;
  const question = unsettled(
    agreement,
    terms,
    (paymentId) =>
      user !== undefined &&
      context.conversation.stated(
        {
          value: paymentId,
          kind: 'payment_method',
          records: Object.values(user.payment_methods),
          ...(reservation?.payment_history[0] === undefined
            ? {}
            : { roles: { original: reservation.payment_history[0].payment_id } }),
        },
        domain,
      ).answer === 'yes',
  );
  return question === undefined ? undefined : { message: question, facts: { charge: terms.charge } };
}

/** Whether the user said something that `holds`: read message by message, no list made. */
function userSays(context: GuardContext, holds: (said: MessageReading) => boolean): boolean {
  for (const said of context.conversation.readEach(readMessage)) if (said.role === 'user' && holds(said)) return true;
  return false;
}

/** The reasons for cancellation the user gave in the conversation, most specific first. */
export function statedReasons(context: GuardContext): readonly CancellationReason[] {
  return reasonsStated(context);
}

const reasonsStated = rememberedLast((context: GuardContext): readonly CancellationReason[] => {
  const given = new Set<CancellationReason>();
  for (const said of context.conversation.readEach(readMessage)) {
    if (said.role === 'user') for (const reason of said.reasons) given.add(reason);
  }
  return cancellationReasons.filter((reason) => given.has(reason));
});

/**
 * Whether the user gave a reason for cancelling: a reason the lexicon recognises, or an answer (not a refusal) to an
 * assistant message that asked for the reason.
 */
export function reasonGiven(context: GuardContext): boolean {
  if (userSays(context, (said) => said.refusesReason)) return false;
  if (statedReasons(context).length > 0) return true;
  const readings = context.conversation.readEach(readMessage);
  const asked = readings.findIndex((reading) => reading.role === 'assistant' && reading.mentionsReason);
  return asked !== -1 && readings.some((reading, index) => index > asked && reading.role === 'user' && !reading.blank);
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
