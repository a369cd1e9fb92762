/** `baggages.payment_in_profile`: The payment method is stored in the owner's profile. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationBaggagesArgs } from '../../types.ts';
import { findReservation, findUser } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<UpdateReservationBaggagesArgs> = (args, context) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    if (reservation === undefined) return undefined;
    return after(findUser(context, reservation.user_id), (user) =>
      user?.payment_methods[args.payment_id] === undefined
        ? { message: `payment method ${args.payment_id} is not in the user's profile` }
        : undefined,
    );
  });
