/** Which reservations of a user could ground a certificate, as the compensation policies need them. */
import type { GuardContext } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';
import { findFlightOnDate, findReservation, findUser } from './airline.ts';
import type { FlightOnDate } from './records.ts';

/** A reservation that could ground a certificate: it has a cancelled or a delayed flight. */
export interface Basis {
  reservationId: string;
  kind: 'cancelled' | 'delayed';
  amount: number;
  eligible: boolean;
}

/** Delayed now, or departed later than scheduled. */
function wasDelayed(segment: FlightOnDate | undefined): boolean {
  if (segment?.status === 'delayed') return true;
  if (segment?.status !== 'landed' && segment?.status !== 'flying') return false;
  return segment.actual_departure_time_est > `${segment.date}T${segment.scheduled_departure_time_est}`;
}

const basesCache = new WeakMap<GuardContext, Promise<Basis[]>>();

/** The reservations that could ground this certificate; found once per decision. */
export function bases(args: SendCertificateArgs, context: GuardContext): Promise<Basis[]> {
  let found = basesCache.get(context);
  if (found === undefined) {
    found = findBases(args, context);
    basesCache.set(context, found);
  }
  return found;
}

async function findBases(args: SendCertificateArgs, context: GuardContext): Promise<Basis[]> {
  const user = await findUser(context, args.user_id);
  if (user === undefined) return [];
  const said = context.conversation.messages
    .map((message) => (message.role === 'user' || message.role === 'assistant' ? message.text : ''))
    .join('\n');
  const mentioned = user.reservations.filter((id) => said.includes(id));
  const found: Basis[] = [];
  for (const id of mentioned.length > 0 ? mentioned : user.reservations) {
    const reservation = await findReservation(context, id);
    if (reservation === undefined) continue;
    const segments = await Promise.all(
      reservation.flights.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date)),
    );
    const eligible =
      user.membership !== 'regular' || reservation.insurance === 'yes' || reservation.cabin === 'business';
    const passengers = reservation.passengers.length;
    if (segments.some((segment) => segment?.status === 'cancelled')) {
      found.push({ reservationId: id, kind: 'cancelled', amount: 100 * passengers, eligible });
    }
    if (segments.some(wasDelayed))
      found.push({ reservationId: id, kind: 'delayed', amount: 50 * passengers, eligible });
  }
  return found;
}
