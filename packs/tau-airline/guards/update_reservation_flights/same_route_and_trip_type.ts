/** `flights.same_route_and_trip_type`: The new flights keep the reservation's origin, destination and trip type. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationFlightsArgs } from '../../types.ts';
import { findReservation, itineraryProblem, resolveLegs } from '../lib/airline.ts';

export const check: PolicyCheck<UpdateReservationFlightsArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation === undefined) return undefined;
  const { legs } = await resolveLegs(context, args.flights);
  const problem = itineraryProblem(legs, reservation.origin, reservation.destination, reservation.flight_type);
  return problem === undefined
    ? undefined
    : { message: `${problem}: the new flights must keep the reservation's origin, destination and trip type` };
};
