/** `passengers.count_unchanged`: The update keeps the number of passengers. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationPassengersArgs } from '../../types.ts';
import { findReservation } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<UpdateReservationPassengersArgs> = (args, context) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    if (reservation === undefined || reservation.passengers.length === args.passengers.length) return undefined;
    return {
      message: `the reservation has ${reservation.passengers.length} passengers, the update has ${args.passengers.length}: the number of passengers cannot change`,
    };
  });
