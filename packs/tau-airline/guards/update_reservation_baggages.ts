/** Guards of `update_reservation_baggages`: one check per atomic policy. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationBaggagesArgs } from '../types.ts';
import { findReservation, findUser, ownerNotObtained, paidBagsProblem, unconfirmed } from './lib/airline.ts';

const userConfirmation: PolicyCheck<UpdateReservationBaggagesArgs> = (args, context) => {
  return unconfirmed(
    context,
    'update_reservation_baggages',
    { action: /\bbag|\bluggage/, details: [args.reservation_id] },
    (past) => past.reservation_id === args.reservation_id,
  );
};

const userIdObtained: PolicyCheck<UpdateReservationBaggagesArgs> = (args, context) =>
  ownerNotObtained(context, args.reservation_id);

const noRemoval: PolicyCheck<UpdateReservationBaggagesArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation === undefined) return undefined;
  if (args.total_baggages < reservation.total_baggages || args.nonfree_baggages < reservation.nonfree_baggages) {
    return {
      message: `the reservation has ${reservation.total_baggages} bags (${reservation.nonfree_baggages} paid); bags can be added but not removed`,
    };
  }
  return undefined;
};

const allowance: PolicyCheck<UpdateReservationBaggagesArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  const user = reservation === undefined ? undefined : await findUser(context, reservation.user_id);
  if (reservation === undefined || user === undefined) return undefined;
  const passengers = reservation.passengers.length;
  return paidBagsProblem(user.membership, reservation.cabin, passengers, args.total_baggages, args.nonfree_baggages);
};

const paymentInProfile: PolicyCheck<UpdateReservationBaggagesArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation === undefined) return undefined;
  const user = await findUser(context, reservation.user_id);
  return user?.payment_methods[args.payment_id] === undefined
    ? { message: `payment method ${args.payment_id} is not in the user's profile` }
    : undefined;
};

/** The checks of `update_reservation_baggages` by policy id. */
export const checks = {
  'baggages.user_confirmation': userConfirmation,
  'baggages.user_id_obtained': userIdObtained,
  'baggages.no_removal': noRemoval,
  'baggages.allowance': allowance,
  'baggages.payment_in_profile': paymentInProfile,
};
