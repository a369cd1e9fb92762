/** `flights.same_route_and_trip_type`: The new flights keep the reservation's origin, destination and trip type. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationFlightsArgs } from '../../types.ts';
import { findReservation, itineraryProblem, resolveLegs } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<UpdateReservationFlightsArgs> = (args, context) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    if (reservation === undefined) return undefined;
    return after(resolveLegs(context, args.flights), ({ legs }) => {
      const problem = itineraryProblem(legs, reservation.origin, reservation.destination, reservation.flight_type);
      return problem === undefined
        ? undefined
        : { message: `${problem}: the new flights must keep the reservation's origin, destination and trip type` };
    });
  });
