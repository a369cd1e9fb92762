import type {
  Cabin,
  Flight,
  FlightOnDate,
  Reservation,
  ReservationFlight,
} from '../../../packs/tau-airline/guards/lib/records.ts';
import type {
  BookReservationArgs,
  UpdateReservationBaggagesArgs,
  UpdateReservationFlightsArgs,
  UpdateReservationPassengersArgs,
} from '../../../packs/tau-airline/types.ts';
import type { ToolInvoker } from '../../model/guard-context.ts';
import { calculate } from './calculate.ts';
import type { AirlineDatabase } from './database.ts';
import { pythonJson } from './python-json.ts';

/**
 * Each flight on each date as one frozen record, made when first looked up: flights never change, so every database
 * and every lookup (guards look up the same flights for each call) shares it instead of copying the flight again.
 */
const flightsOnDates = new WeakMap<Readonly<Flight>, Map<string, FlightOnDate>>();

/**
 * A tool's refusal, printed as `Error: <message>` like tau-bench v1. It is an expected answer, not a fault, so it
 * captures no stack: guards that look up missing records pay nothing for it.
 */
export class ToolError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

const airports: Record<string, string> = {
  SFO: 'San Francisco',
  JFK: 'New York',
  LAX: 'Los Angeles',
  ORD: 'Chicago',
  DFW: 'Dallas',
  DEN: 'Denver',
  SEA: 'Seattle',
  ATL: 'Atlanta',
  MIA: 'Miami',
  BOS: 'Boston',
  PHX: 'Phoenix',
  IAH: 'Houston',
  LAS: 'Las Vegas',
  MCO: 'Orlando',
  EWR: 'Newark',
  CLT: 'Charlotte',
  MSP: 'Minneapolis',
  DTW: 'Detroit',
  PHL: 'Philadelphia',
  LGA: 'LaGuardia',
};

/** The clock of the airline domain: 2024-05-15 15:00 EST, as the policy states. */
export const airlineNow = '2024-05-15T15:00:00';

type Args = Record<string, unknown>;
type Tool = (args: Args) => unknown;

function text(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string') throw new ToolError(`argument \`${name}\` must be a string`);
  return value;
}

/**
 * The 14 tools of the tau-bench v1 airline domain, faithful to v1 with its quirks, plus the guard-only lookup
 * `get_flight_on_date_details`. `run` returns what the agent sees (JSON text or `Error: …`); `invoker` gives guards
 * the lookups as values.
 *
 * @example
 * ```ts
 * const tools = new AirlineTools(new AirlineDatabase(await loadAirlineData()));
 * tools.run('get_reservation_details', { reservation_id: '4WQ150' }); // '{"reservation_id": "4WQ150", ...}'
 * ```
 */
export class AirlineTools {
  private readonly database: AirlineDatabase;
  private readonly tools: Record<string, Tool>;
  /** Lookups that guards may call. */
  static readonly lookups: ReadonlySet<string> = new Set([
    'get_user_details',
    'get_reservation_details',
    'get_flight_on_date_details',
    'list_all_airports',
    'search_direct_flight',
    'search_onestop_flight',
    'calculate',
  ]);

  constructor(database: AirlineDatabase) {
    this.database = database;
    this.tools = {
      get_user_details: (args) => this.getUser(text(args, 'user_id')),
      get_reservation_details: (args) => this.getReservation(text(args, 'reservation_id')),
      get_flight_on_date_details: (args) => this.flightOnDate(text(args, 'flight_number'), text(args, 'date')),
      list_all_airports: () => airports,
      search_direct_flight: (args) =>
        this.searchDirect(text(args, 'origin'), text(args, 'destination'), text(args, 'date')),
      search_onestop_flight: (args) =>
        this.searchOneStop(text(args, 'origin'), text(args, 'destination'), text(args, 'date')),
      calculate: (args) => calculate(text(args, 'expression')),
      think: () => '',
      transfer_to_human_agents: () => 'Transfer successful',
      book_reservation: (args) => this.book(args as unknown as BookReservationArgs),
      cancel_reservation: (args) => this.cancel(text(args, 'reservation_id')),
      update_reservation_baggages: (args) => this.updateBaggages(args as unknown as UpdateReservationBaggagesArgs),
      update_reservation_flights: (args) => this.updateFlights(args as unknown as UpdateReservationFlightsArgs),
      update_reservation_passengers: (args) =>
        this.updatePassengers(args as unknown as UpdateReservationPassengersArgs),
      send_certificate: (args) => this.sendCertificate(text(args, 'user_id'), args.amount as number),
    };
  }

  /** Runs a tool as the agent would: returns its text result, `Error: …` when it refuses. */
  run(name: string, args: Args): string {
    const tool = this.tools[name];
    if (tool === undefined) return `Error: unknown tool ${name}`;
    try {
      const value = tool(args);
      return typeof value === 'string' ? value : pythonJson(value);
    } catch (error) {
      if (error instanceof ToolError) return `Error: ${error.message}`;
      return `Error: ${(error as Error).message}`;
    }
  }

  /** Read-only lookups for guards: values, not text; a refusal throws. In process, so they also answer at once. */
  readonly invoker: ToolInvoker = {
    invoke: async (name, args) => this.lookup(name, args),
    invokeNow: (name, args) => this.lookup(name, args),
  };

  private lookup(name: string, args: Args): unknown {
    const tool = AirlineTools.lookups.has(name) ? this.tools[name] : undefined;
    if (tool === undefined) throw new ToolError(`\`${name}\` is not a lookup`);
    return tool(args);
  }

  private getUser(id: string) {
    const user = this.database.user(id);
    if (user === undefined) throw new ToolError('user not found');
    return user;
  }

  private getReservation(id: string) {
    const reservation = this.database.reservation(id);
    // tau-bench v1 says "user not found" here.
    if (reservation === undefined) throw new ToolError('user not found');
    return reservation;
  }

  private flightOnDate(number: string, date: string): FlightOnDate {
    const flight = this.database.flight(number);
    if (flight === undefined) throw new ToolError(`flight ${number} not found`);
    let byDate = flightsOnDates.get(flight);
    if (byDate === undefined) {
      byDate = new Map();
      flightsOnDates.set(flight, byDate);
    }
    let found = byDate.get(date);
    if (found === undefined) {
      const status = flight.dates[date];
      if (status === undefined) throw new ToolError(`flight ${number} not found on date ${date}`);
      const { dates: _dates, ...fields } = flight;
      found = Object.freeze({ ...fields, date, ...status } as FlightOnDate);
      byDate.set(date, found);
    }
    return found;
  }

  private searchDirect(origin: string, destination: string, date: string) {
    const results: unknown[] = [];
    for (const flight of this.database.flights()) {
      if (flight.origin !== origin || flight.destination !== destination) continue;
      const status = flight.dates[date];
      if (status?.status !== 'available') continue;
      const { dates: _dates, ...fields } = flight;
      results.push({ ...fields, ...status });
    }
    return results;
  }

  private searchOneStop(origin: string, destination: string, date: string) {
    const results: unknown[] = [];
    const flights = [...this.database.flights()];
    for (const first of flights) {
      if (first.origin !== origin) continue;
      for (const second of flights) {
        if (second.destination !== destination || first.destination !== second.origin) continue;
        // v1: the next day is not zero-padded, and leg 2's figures are read from `date`.
        const secondDate = first.scheduled_arrival_time_est.includes('+1')
          ? `2024-05-${Number(date.slice(-2)) + 1}`
          : date;
        if (first.scheduled_arrival_time_est > second.scheduled_departure_time_est) continue;
        const firstStatus = first.dates[date];
        const secondStatus = second.dates[secondDate];
        if (firstStatus?.status !== 'available' || secondStatus?.status !== 'available') continue;
        const { dates: _first, ...firstFields } = first;
        const { dates: _second, ...secondFields } = second;
        results.push([
          { ...firstFields, ...firstStatus, date },
          { ...secondFields, ...second.dates[date], date: secondDate },
        ]);
      }
    }
    return results;
  }

  private priceFlight(number: string, date: string, cabin: Cabin, passengers: number): ReservationFlight {
    const flight = this.database.flight(number);
    if (flight === undefined) throw new ToolError(`flight ${number} not found`);
    const status = flight.dates[date];
    if (status === undefined) throw new ToolError(`flight ${number} not found on date ${date}`);
    if (status.status !== 'available') throw new ToolError(`flight ${number} not available on date ${date}`);
    if (status.available_seats[cabin] < passengers) throw new ToolError(`not enough seats on flight ${number}`);
    return {
      flight_number: number,
      date,
      price: status.prices[cabin],
      origin: flight.origin,
      destination: flight.destination,
    };
  }

  private book(args: BookReservationArgs): Reservation {
    const user = this.database.user(args.user_id);
    if (user === undefined) throw new ToolError('user not found');
    let reservationId = 'HATHAT';
    if (this.database.reservation(reservationId) !== undefined) reservationId = 'HATHAU';
    if (this.database.reservation(reservationId) !== undefined) reservationId = 'HATHAV';
    const passengers = args.passengers.length;
    let total = 0;
    const flights = args.flights.map((requested) => {
      const priced = this.priceFlight(requested.flight_number, requested.date, args.cabin, passengers);
      total += priced.price * passengers;
      return { ...requested, ...priced };
    });
    if (args.insurance === 'yes') total += 30 * passengers;
    total += 50 * args.nonfree_baggages;
    for (const payment of args.payment_methods) {
      const method = user.payment_methods[payment.payment_id];
      if (method === undefined) throw new ToolError(`payment method ${payment.payment_id} not found`);
      if ((method.source === 'gift_card' || method.source === 'certificate') && method.amount < payment.amount) {
        throw new ToolError(`not enough balance in payment method ${payment.payment_id}`);
      }
    }
    const paid = args.payment_methods.reduce((sum, payment) => sum + payment.amount, 0);
    if (paid !== total)
      throw new ToolError(`payment amount does not add up, total price is ${total}, but paid ${paid}`);
    const reservation: Reservation = {
      reservation_id: reservationId,
      user_id: args.user_id,
      origin: args.origin,
      destination: args.destination,
      flight_type: args.flight_type,
      cabin: args.cabin,
      flights,
      passengers: structuredClone(args.passengers),
      payment_history: structuredClone(args.payment_methods),
      created_at: airlineNow,
      total_baggages: args.total_baggages,
      nonfree_baggages: args.nonfree_baggages,
      insurance: args.insurance,
    };
    this.database.updateUser(args.user_id, (owner) => {
      for (const payment of args.payment_methods) {
        const method = owner.payment_methods[payment.payment_id];
        if (method?.source === 'gift_card') method.amount -= payment.amount;
        else if (method?.source === 'certificate') delete owner.payment_methods[payment.payment_id];
      }
      owner.reservations.push(reservationId);
    });
    this.database.addReservation(reservation);
    return reservation;
  }

  private cancel(id: string): Readonly<Reservation> {
    const reservation = this.database.updateReservation(id, (changed) => {
      const refunds = changed.payment_history.map((payment) => ({
        payment_id: payment.payment_id,
        amount: -payment.amount,
      }));
      changed.payment_history.push(...refunds);
      changed.status = 'cancelled';
    });
    if (reservation === undefined) throw new ToolError('reservation not found');
    return reservation;
  }

  private paymentMethod(reservation: Readonly<Reservation>, paymentId: string, price: number) {
    const method = this.database.user(reservation.user_id)?.payment_methods[paymentId];
    if (method === undefined) throw new ToolError('payment method not found');
    if (method.source === 'certificate') throw new ToolError('certificate cannot be used to update reservation');
    if (method.source === 'gift_card' && method.amount < price) throw new ToolError('gift card balance is not enough');
    return method;
  }

  private debitGiftCard(userId: string, paymentId: string, amount: number): void {
    if (this.database.user(userId)?.payment_methods[paymentId]?.source !== 'gift_card') return;
    this.database.updateUser(userId, (user) => {
      const method = user.payment_methods[paymentId];
      if (method?.source === 'gift_card') method.amount -= amount;
    });
  }

  private updateBaggages(args: UpdateReservationBaggagesArgs): Readonly<Reservation> | undefined {
    const stored = this.database.reservation(args.reservation_id);
    if (stored === undefined) throw new ToolError('reservation not found');
    const price = 50 * Math.max(0, args.nonfree_baggages - stored.nonfree_baggages);
    this.paymentMethod(stored, args.payment_id, price);
    const reservation = this.database.updateReservation(args.reservation_id, (changed) => {
      changed.total_baggages = args.total_baggages;
      changed.nonfree_baggages = args.nonfree_baggages;
      if (price !== 0) changed.payment_history.push({ payment_id: args.payment_id, amount: price });
    });
    this.debitGiftCard(stored.user_id, args.payment_id, price);
    return reservation;
  }

  private updateFlights(args: UpdateReservationFlightsArgs): Readonly<Reservation> | undefined {
    const stored = this.database.reservation(args.reservation_id);
    if (stored === undefined) throw new ToolError('reservation not found');
    const passengers = stored.passengers.length;
    let total = 0;
    const flights = args.flights.map((requested) => {
      const kept = stored.flights.find(
        (flight) =>
          flight.flight_number === requested.flight_number &&
          flight.date === requested.date &&
          args.cabin === stored.cabin,
      );
      const priced = kept
        ? { ...requested, price: kept.price, origin: kept.origin, destination: kept.destination }
        : { ...requested, ...this.priceFlight(requested.flight_number, requested.date, args.cabin, passengers) };
      total += priced.price * passengers;
      return priced;
    });
    total -= stored.flights.reduce((sum, flight) => sum + flight.price, 0) * passengers;
    this.paymentMethod(stored, args.payment_id, total);
    this.debitGiftCard(stored.user_id, args.payment_id, total);
    // v1 leaves `cabin` unchanged (fixed in tau2).
    return this.database.updateReservation(args.reservation_id, (changed) => {
      changed.flights = flights;
      if (total !== 0) changed.payment_history.push({ payment_id: args.payment_id, amount: total });
    });
  }

  private updatePassengers(args: UpdateReservationPassengersArgs): Readonly<Reservation> | undefined {
    const stored = this.database.reservation(args.reservation_id);
    if (stored === undefined) throw new ToolError('reservation not found');
    if (args.passengers.length !== stored.passengers.length) throw new ToolError('number of passengers does not match');
    return this.database.updateReservation(args.reservation_id, (changed) => {
      changed.passengers = structuredClone(args.passengers);
    });
  }

  private sendCertificate(userId: string, amount: number): string {
    const user = this.database.user(userId);
    if (user === undefined) throw new ToolError('user not found');
    const paymentId = ['certificate_3221322', 'certificate_3221323', 'certificate_3221324'].find(
      (id) => user.payment_methods[id] === undefined,
    );
    // v1 returns None when all three certificate ids are taken.
    if (paymentId === undefined) return 'None';
    this.database.updateUser(userId, (changed) => {
      changed.payment_methods[paymentId] = { source: 'certificate', amount, id: paymentId };
    });
    return `Certificate ${paymentId} added to user ${userId} with amount ${amount}.`;
  }
}
