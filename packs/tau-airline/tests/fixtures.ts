/** A small airline world for the pack's tests: records built from defaults, answered by a mock invoker. */
import type { GuardContext, Message } from 'agentguard';
import { guardContext, mockInvoker, says } from 'agentguard/testing';
import type { FlightOnDate, Reservation, User } from '../types.ts';

/** The clock of the policy: 2024-05-15 15:00 EST. */
export const now = new Date('2024-05-15T15:00:00-05:00');

/** A gold member with a credit card, a gift card and a certificate. */
export function user(overrides: Partial<User> = {}): User {
  return {
    name: { first_name: 'Mia', last_name: 'Li' },
    address: { city: 'Austin' },
    email: 'mia@example.com',
    dob: '1990-04-05',
    payment_methods: {
      credit_card_1: { source: 'credit_card', id: 'credit_card_1', brand: 'visa', last_four: '7447' },
      credit_card_2: { source: 'credit_card', id: 'credit_card_2', brand: 'visa', last_four: '1907' },
      gift_card_1: { source: 'gift_card', id: 'gift_card_1', amount: 100 },
      gift_card_2: { source: 'gift_card', id: 'gift_card_2', amount: 100 },
      gift_card_3: { source: 'gift_card', id: 'gift_card_3', amount: 100 },
      gift_card_4: { source: 'gift_card', id: 'gift_card_4', amount: 100 },
      certificate_1: { source: 'certificate', id: 'certificate_1', amount: 250 },
      certificate_2: { source: 'certificate', id: 'certificate_2', amount: 100 },
    },
    saved_passengers: [],
    membership: 'gold',
    reservations: ['ABC123'],
    ...overrides,
  };
}

/** A one-way economy trip JFK to SEA through ATL on 2024-05-20, one passenger, booked five days ago. */
export function reservation(overrides: Partial<Reservation> = {}): Reservation {
  return {
    reservation_id: 'ABC123',
    user_id: 'mia_li_3668',
    origin: 'JFK',
    destination: 'SEA',
    flight_type: 'one_way',
    cabin: 'economy',
    flights: [
      { flight_number: 'HAT136', date: '2024-05-20', price: 150, origin: 'JFK', destination: 'ATL' },
      { flight_number: 'HAT039', date: '2024-05-20', price: 150, origin: 'ATL', destination: 'SEA' },
    ],
    passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }],
    payment_history: [{ payment_id: 'credit_card_1', amount: 300 }],
    created_at: '2024-05-10T10:00:00',
    total_baggages: 0,
    nonfree_baggages: 0,
    insurance: 'no',
    ...overrides,
  };
}

/** An available flight on a date with 10 seats a cabin at 50, 100 and 300 dollars. */
export function flight(
  number: string,
  date: string,
  origin: string,
  destination: string,
  overrides: Partial<FlightOnDate> = {},
): FlightOnDate {
  return {
    flight_number: number,
    origin,
    destination,
    scheduled_departure_time_est: '08:00:00',
    scheduled_arrival_time_est: '10:00:00',
    date,
    status: 'available',
    available_seats: { basic_economy: 10, economy: 10, business: 10 },
    prices: { basic_economy: 50, economy: 100, business: 300 },
    ...overrides,
  } as FlightOnDate;
}

/** The flights of the default reservation, and their return legs. */
export const defaultFlights = [
  flight('HAT136', '2024-05-20', 'JFK', 'ATL'),
  flight('HAT039', '2024-05-20', 'ATL', 'SEA'),
  flight('HAT500', '2024-05-25', 'SEA', 'JFK'),
  flight('HAT600', '2024-05-21', 'JFK', 'SEA'),
  flight('HAT700', '2024-05-21', 'JFK', 'LAX'),
];

/** The records a test's lookups can see. */
export interface World {
  users?: Record<string, User>;
  reservations?: Reservation[];
  flights?: FlightOnDate[];
}

/** A guard context over a world (by default the default user, reservation and flights) and a conversation. */
export function context(conversation: readonly (Message | readonly Message[])[], world: World = {}): GuardContext {
  const users = world.users ?? { mia_li_3668: user() };
  const reservations = world.reservations ?? [reservation()];
  const flights = world.flights ?? defaultFlights;
  const invoker = mockInvoker({
    get_user_details: (args) => {
      const found = users[String(args.user_id)];
      if (found === undefined) throw new Error('user not found');
      return found;
    },
    get_reservation_details: (args) => {
      const found = reservations.find((candidate) => candidate.reservation_id === args.reservation_id);
      if (found === undefined) throw new Error('reservation not found');
      return found;
    },
    get_flight_on_date_details: (args) => {
      const found = flights.find(
        (candidate) => candidate.flight_number === args.flight_number && candidate.date === args.date,
      );
      if (found === undefined) throw new Error('flight not found');
      return found;
    },
  });
  return guardContext({ conversation, invoker, now });
}

/** The user gives their id, the agent proposes `proposal`, and the user answers `reply`. */
export function dialogue(proposal: string, reply = 'Yes, please proceed.'): Message[] {
  return [says.user('Hi, my user id is mia_li_3668.'), says.assistant(proposal), says.user(reply)];
}

/** A call for a check's third argument. */
export function callOf(name: string, args: object) {
  return { id: 'call_test', name, arguments: args as Record<string, unknown> };
}

type AnyCheck = (args: never, context: GuardContext, call: ReturnType<typeof callOf>) => unknown;

/** Runs one policy's check in isolation and returns its finding (undefined when the call complies). */
export async function decide(
  checks: Record<string, AnyCheck>,
  policy: string,
  tool: string,
  args: object,
  guard: GuardContext,
): Promise<{ message: string } | undefined> {
  const check = checks[policy];
  if (check === undefined) throw new Error(`no check for ${policy}`);
  return (await check(args as never, guard, callOf(tool, args))) as { message: string } | undefined;
}
