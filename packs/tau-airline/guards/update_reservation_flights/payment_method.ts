/** `flights.payment_method`: A flight or cabin change is paid or refunded with one gift card or credit card stored in the user's profile. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationFlightsArgs } from '../../types.ts';
import { findReservation, findUser } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<UpdateReservationFlightsArgs> = (args, context) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    if (reservation === undefined) return undefined;
    return after(findUser(context, reservation.user_id), (user) => {
      const method = user?.payment_methods[args.payment_id];
      if (method === undefined) return { message: `payment method ${args.payment_id} is not in the user's profile` };
      if (method.source !== 'gift_card' && method.source !== 'credit_card') {
        return { message: `payment method ${args.payment_id} is a ${method.source}: use one gift card or credit card` };
      }
      return undefined;
    });
  });
