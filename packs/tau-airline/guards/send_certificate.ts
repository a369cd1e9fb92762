/** Guards of `send_certificate`: one check per atomic policy. */
import type { GuardContext, PolicyCheck } from 'agentguard';
import type { FlightOnDate, SendCertificateArgs } from '../types.ts';
import { findFlightOnDate, findReservation, findUser } from './lib/airline.ts';

/** A reservation that could ground a certificate: it has a cancelled or a delayed flight. */
interface Basis {
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
function bases(args: SendCertificateArgs, context: GuardContext): Promise<Basis[]> {
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

const userAsked: PolicyCheck<SendCertificateArgs> = (_args, context) => {
  const asked = context.conversation
    .userTexts()
    .some((text) => /compensat|certificate|voucher|refund|reimburs|credit|gesture|make (it )?up for/i.test(text));
  return asked
    ? undefined
    : { message: 'the user has not asked for compensation: do not offer a certificate unprompted' };
};

const factsConfirmed: PolicyCheck<SendCertificateArgs> = async (args, context) =>
  (await bases(args, context)).length > 0
    ? undefined
    : { message: `no reservation of ${args.user_id} in question has a cancelled or delayed flight` };

const eligibleUser: PolicyCheck<SendCertificateArgs> = async (args, context) => {
  const found = await bases(args, context);
  if (found.length === 0 || found.some((basis) => basis.eligible)) return undefined;
  return {
    message: `${args.user_id} is a regular member without travel insurance flying (basic) economy: no compensation`,
  };
};

const amount: PolicyCheck<SendCertificateArgs> = async (args, context) => {
  const eligible = (await bases(args, context)).filter((basis) => basis.eligible);
  if (eligible.length === 0 || eligible.some((basis) => basis.amount === args.amount)) return undefined;
  const allowed = eligible.map((basis) => `$${basis.amount} for the ${basis.kind} flight of ${basis.reservationId}`);
  return { message: `a certificate of $${args.amount} matches no gesture: ${allowed.join('; ')}`, facts: { allowed } };
};

const delayAfterChange: PolicyCheck<SendCertificateArgs> = async (args, context) => {
  const matching = (await bases(args, context)).filter((basis) => basis.eligible && basis.amount === args.amount);
  if (matching.length === 0 || matching.some((basis) => basis.kind === 'cancelled')) return undefined;
  const changed = context.conversation
    .toolCalls()
    .some(
      (past) =>
        (past.call.name === 'cancel_reservation' || past.call.name === 'update_reservation_flights') &&
        matching.some((basis) => basis.reservationId === past.call.arguments.reservation_id) &&
        past.result !== undefined &&
        !past.result.startsWith('Error'),
    );
  return changed
    ? undefined
    : { message: 'a certificate for a delayed flight comes only after the reservation was changed or cancelled' };
};

/** The checks of `send_certificate` by policy id. */
export const checks = {
  'certificate.user_asked': userAsked,
  'certificate.facts_confirmed': factsConfirmed,
  'certificate.eligible_user': eligibleUser,
  'certificate.amount': amount,
  'certificate.delay_after_change': delayAfterChange,
};
