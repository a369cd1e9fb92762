/** `baggages.payment_in_profile`: The payment method is stored in the owner's profile. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationBaggagesArgs } from '../../types.ts';
import { findReservation, findUser } from '../lib/airline.ts';

export const check: PolicyCheck<UpdateReservationBaggagesArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation === undefined) return undefined;
  const user = await findUser(context, reservation.user_id);
  return user?.payment_methods[args.payment_id] === undefined
    ? { message: `payment method ${args.payment_id} is not in the user's profile` }
    : undefined;
};
