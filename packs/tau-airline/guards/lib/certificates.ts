/** Which reservations of a user could ground a certificate, as the compensation policies need them. */
import type { GuardContext } from 'agentguard';
import type { SendCertificateArgs } from '../../types.ts';
import { findFlightOnDate, findReservation, findUser } from './airline.ts';
import { rememberedLast } from './last.ts';
import { after, allOf, type Maybe } from './maybe.ts';
import type { FlightOnDate, User } from './records.ts';

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

const basesOfDecision = rememberedLast((_context: GuardContext): { bases?: Maybe<Basis[]> } => ({}));

/**
 * The reservations that could ground this certificate: those the user named (`Conversation.stated`), else all the
 * user's; found once per decision.
 */
export function bases(args: SendCertificateArgs, context: GuardContext): Maybe<Basis[]> {
  const slot = basesOfDecision(context);
  slot.bases ??= findBases(args, context);
  return slot.bases;
}

function findBases(args: SendCertificateArgs, context: GuardContext): Maybe<Basis[]> {
  return after(findUser(context, args.user_id), (user) => {
    if (user === undefined) return [];
    const mentioned = user.reservations.filter((id) => context.conversation.stated({ value: id }).answer === 'yes');
    const ids = mentioned.length > 0 ? mentioned : user.reservations;
    return after(allOf(ids.map((id) => basesOf(context, user, id))), (found) => found.flat());
  });
}

/** What one reservation of the user could ground: nothing, or a cancelled and a delayed flight. */
function basesOf(context: GuardContext, user: User, id: string): Maybe<Basis[]> {
  return after(findReservation(context, id), (reservation) => {
    if (reservation === undefined) return [];
    const segments = reservation.flights.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date));
    return after(allOf(segments), (found) => {
      const eligible =
        user.membership !== 'regular' || reservation.insurance === 'yes' || reservation.cabin === 'business';
      const passengers = reservation.passengers.length;
      const grounds: Basis[] = [];
      if (found.some((segment) => segment?.status === 'cancelled')) {
        grounds.push({ reservationId: id, kind: 'cancelled', amount: 100 * passengers, eligible });
      }
      if (found.some(wasDelayed))
        grounds.push({ reservationId: id, kind: 'delayed', amount: 50 * passengers, eligible });
      return grounds;
    });
  });
}
