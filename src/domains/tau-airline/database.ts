import { readFile } from 'node:fs/promises';
import type { AirlineData, Flight, Reservation, User } from '../../../packs/tau-airline/guards/lib/records.ts';
import { packagePath } from '../../package-root.ts';

/** Folder of the tau-bench airline data shipped with agentguard. */
export const airlineDataDir = packagePath('data/tau-airline');

/** Freezes a value and everything in it, in place; returns it. */
export function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/**
 * Loads the airline data once, frozen, to be shared by every fresh `AirlineDatabase`.
 *
 * @example
 * ```ts
 * const base = await loadAirlineData();
 * const database = new AirlineDatabase(base);
 * ```
 */
export async function loadAirlineData(dir = airlineDataDir): Promise<Readonly<AirlineData>> {
  const read = async (name: string) => JSON.parse(await readFile(`${dir}/${name}`, 'utf8')) as unknown;
  const [flights, reservations, users] = await Promise.all([
    read('flights.json'),
    read('reservations.json'),
    read('users.json'),
  ]);
  return deepFreeze({ flights, reservations, users } as AirlineData);
}

/** The shared data as maps, and the flights as a list: made once per loaded data, shared by every database over it. */
interface Indexed {
  users: ReadonlyMap<string, Readonly<User>>;
  reservations: ReadonlyMap<string, Readonly<Reservation>>;
  flights: ReadonlyMap<string, Readonly<Flight>>;
  flightList: readonly Readonly<Flight>[];
}

const indexes = new WeakMap<Readonly<AirlineData>, Indexed>();

function indexed(base: Readonly<AirlineData>): Indexed {
  let index = indexes.get(base);
  if (index === undefined) {
    index = {
      users: new Map(Object.entries(base.users)),
      reservations: new Map(Object.entries(base.reservations)),
      flights: new Map(Object.entries(base.flights)),
      flightList: Object.values(base.flights),
    };
    indexes.set(base, index);
  }
  return index;
}

/**
 * The airline database as one run sees it: the shared frozen data plus this run's own changes. Every record is
 * frozen; a change stores a changed copy, so a fresh database costs nothing, runs never see each other's changes, and
 * readers (guards among them) can be handed records without copying.
 */
export class AirlineDatabase {
  private readonly base: Indexed;
  private readonly users = new Map<string, User>();
  private readonly reservations = new Map<string, Reservation>();

  constructor(base: Readonly<AirlineData>) {
    this.base = indexed(base);
  }

  /** A user as stored now (read-only for callers), or undefined. */
  user(id: string): Readonly<User> | undefined {
    return this.users.get(id) ?? this.base.users.get(id);
  }

  /** A reservation as stored now (read-only for callers), or undefined. */
  reservation(id: string): Readonly<Reservation> | undefined {
    return this.reservations.get(id) ?? this.base.reservations.get(id);
  }

  /** A flight (flights never change in tau-bench v1), or undefined. */
  flight(number: string): Readonly<Flight> | undefined {
    return this.base.flights.get(number);
  }

  /** Every flight. */
  flights(): Iterable<Readonly<Flight>> {
    return this.base.flightList;
  }

  /**
   * Changes a user: `change` edits a copy, which is then frozen and stored, so that records handed out earlier never
   * change under their readers. Returns the stored record, or undefined when there is no such user.
   */
  updateUser(id: string, change: (user: User) => void): Readonly<User> | undefined {
    return AirlineDatabase.update(this.user(id), change, (user) => this.users.set(id, user));
  }

  /** Changes a reservation the same way as `updateUser`. */
  updateReservation(id: string, change: (reservation: Reservation) => void): Readonly<Reservation> | undefined {
    return AirlineDatabase.update(this.reservation(id), change, (reservation) =>
      this.reservations.set(id, reservation),
    );
  }

  private static update<Record>(
    stored: Readonly<Record> | undefined,
    change: (record: Record) => void,
    store: (record: Record) => void,
  ): Readonly<Record> | undefined {
    if (stored === undefined) return undefined;
    const copy = structuredClone(stored) as Record;
    change(copy);
    store(deepFreeze(copy));
    return copy;
  }

  /**
   * Every table, each as its records by id (the flights, the reservations booked in this run included, the users):
   * what the data hash is computed over.
   */
  tables(): Record<string, Iterable<[string, object]>> {
    const merged = function* <Row>(base: ReadonlyMap<string, Row>, changed: ReadonlyMap<string, Row>) {
      for (const [id, row] of base) yield [id, changed.get(id) ?? row] as [string, Row & object];
      for (const [id, row] of changed) if (!base.has(id)) yield [id, row] as [string, Row & object];
    };
    return {
      flights: this.base.flights.entries(),
      reservations: merged(this.base.reservations, this.reservations),
      users: merged(this.base.users, this.users),
    };
  }

  /** Stores a new reservation, frozen. */
  addReservation(reservation: Reservation): void {
    this.reservations.set(reservation.reservation_id, deepFreeze(reservation));
  }
}
