/** `baggages.allowance`: The number of paid bags is the total minus the free allowance of the owner's tier for the reservation's cabin and passengers, never below zero. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationBaggagesArgs } from '../../types.ts';
import { findReservation, findUser, paidBagsProblem } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<UpdateReservationBaggagesArgs> = (args, context) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    if (reservation === undefined) return undefined;
    return after(findUser(context, reservation.user_id), (user) => {
      if (user === undefined) return undefined;
      const passengers = reservation.passengers.length;
      return paidBagsProblem(
        user.membership,
        reservation.cabin,
        passengers,
        args.total_baggages,
        args.nonfree_baggages,
      );
    });
  });
