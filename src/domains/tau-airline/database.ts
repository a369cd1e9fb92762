import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AirlineData, Flight, Reservation, User } from '../../../packs/tau-airline/types.ts';

/** Folder of the tau-bench airline data shipped with agentguard. */
export const airlineDataDir = fileURLToPath(new URL('../../../data/tau-airline/', import.meta.url));

function deepFreeze<Value>(value: Value): Value {
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

/**
 * The airline database as one run sees it: the shared frozen data plus this run's own changes. A record is copied
 * the first time a tool changes it, so a fresh database costs nothing and runs never see each other's changes.
 */
export class AirlineDatabase {
  private readonly base: Readonly<AirlineData>;
  private readonly users = new Map<string, User>();
  private readonly reservations = new Map<string, Reservation>();

  constructor(base: Readonly<AirlineData>) {
    this.base = base;
  }

  /** A user as stored now (read-only for callers), or undefined. */
  user(id: string): Readonly<User> | undefined {
    return this.users.get(id) ?? (Object.hasOwn(this.base.users, id) ? this.base.users[id] : undefined);
  }

  /** A reservation as stored now (read-only for callers), or undefined. */
  reservation(id: string): Readonly<Reservation> | undefined {
    return (
      this.reservations.get(id) ?? (Object.hasOwn(this.base.reservations, id) ? this.base.reservations[id] : undefined)
    );
  }

  /** A flight (flights never change in tau-bench v1), or undefined. */
  flight(number: string): Readonly<Flight> | undefined {
    return Object.hasOwn(this.base.flights, number) ? this.base.flights[number] : undefined;
  }

  /** Every flight. */
  flights(): Iterable<Readonly<Flight>> {
    return Object.values(this.base.flights);
  }

  /** Whether this run changed the user or reservation, so that reads must copy it. */
  isChanged(kind: 'user' | 'reservation', id: string): boolean {
    return kind === 'user' ? this.users.has(id) : this.reservations.has(id);
  }

  /** A user this run may change. */
  mutableUser(id: string): User | undefined {
    let user = this.users.get(id);
    if (user === undefined) {
      const stored = this.user(id);
      if (stored === undefined) return undefined;
      user = structuredClone(stored) as User;
      this.users.set(id, user);
    }
    return user;
  }

  /** A reservation this run may change. */
  mutableReservation(id: string): Reservation | undefined {
    let reservation = this.reservations.get(id);
    if (reservation === undefined) {
      const stored = this.reservation(id);
      if (stored === undefined) return undefined;
      reservation = structuredClone(stored) as Reservation;
      this.reservations.set(id, reservation);
    }
    return reservation;
  }

  /** Stores a new reservation. */
  addReservation(reservation: Reservation): void {
    this.reservations.set(reservation.reservation_id, reservation);
  }
}
