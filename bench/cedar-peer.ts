/**
 * A peer for the latency benchmark: Cedar's own engine (`@cedar-policy/cedar-wasm`) deciding the cancellation rules
 * it can express (eligibility, nothing flown, the owner's user id given), with a preparsed policy set and the facts
 * precomputed into the request context, the way Cedar is meant to be called from an application.
 */
import { type Context, preparsePolicySet, statefulIsAuthorized } from '@cedar-policy/cedar-wasm/nodejs';
import {
  coveredReason,
  estTime,
  findFlightOnDate,
  findReservation,
  isFlown,
  userMentioned,
} from '../packs/tau-airline/guards/lib/airline.ts';
import type { GuardContext } from '../src/model/guard-context.ts';

/** The three rules, in Cedar: one permit for eligibility, two forbids. */
export const cancellationPolicies = `
permit (principal, action == Action::"cancel_reservation", resource)
when { context.booked_within_day || context.airline_cancelled || context.business || (context.insured && context.health_or_weather) };
forbid (principal, action == Action::"cancel_reservation", resource) when { context.segment_flown };
forbid (principal, action == Action::"cancel_reservation", resource) unless { context.owner_named };
`;

const policySetId = 'tau-airline-cancellation';

/** The policy ids of our pack that the Cedar rules decide. */
export const cedarCovers = new Set(['cancel.eligibility', 'cancel.not_flown', 'cancel.user_id_obtained']);

/** Parses the policy set once into Cedar's cache; throws when Cedar refuses it. */
export function prepareCedar(): void {
  const answer = preparsePolicySet(policySetId, { staticPolicies: cancellationPolicies });
  if (answer.type !== 'success') {
    throw new Error(
      `cedar refused the cancellation policies: ${answer.errors.map((error) => error.message).join('; ')}`,
    );
  }
}

/** The facts of a cancellation as Cedar's request context, read with the pack's own lookups; undefined without a reservation. */
export async function cancellationFacts(reservationId: string, context: GuardContext): Promise<Context | undefined> {
  const reservation = await findReservation(context, reservationId);
  if (reservation === undefined) return undefined;
  const segments = await Promise.all(
    reservation.flights.map((flight) => findFlightOnDate(context, flight.flight_number, flight.date)),
  );
  return {
    booked_within_day: context.now.getTime() - estTime(reservation.created_at) <= 24 * 60 * 60 * 1000,
    airline_cancelled: segments.some((segment) => segment?.status === 'cancelled'),
    business: reservation.cabin === 'business',
    insured: reservation.insurance === 'yes',
    health_or_weather: coveredReason(context).answer === 'yes',
    segment_flown: segments.some(isFlown),
    owner_named: userMentioned(context, reservation.user_id),
  };
}

/** Cedar's decision for one cancellation, from precomputed facts. */
export function cedarDecides(reservationId: string, facts: Context): 'allow' | 'deny' {
  const answer = statefulIsAuthorized({
    principal: { type: 'User', id: 'agent' },
    action: { type: 'Action', id: 'cancel_reservation' },
    resource: { type: 'Reservation', id: reservationId },
    context: facts,
    preparsedPolicySetId: policySetId,
    entities: [],
  });
  if (answer.type !== 'success') {
    throw new Error(`cedar failed: ${answer.errors.map((error) => error.message).join('; ')}`);
  }
  return answer.response.decision;
}
