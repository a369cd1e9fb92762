/** Guards of `update_reservation_passengers`: one check per atomic policy. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationPassengersArgs } from '../types.ts';
import { findReservation, incompletePassenger, ownerNotObtained, unconfirmed } from './lib/airline.ts';

const userConfirmation: PolicyCheck<UpdateReservationPassengersArgs> = (args, context) => {
  const details = [args.reservation_id, ...args.passengers.map((passenger) => passenger.first_name)];
  return unconfirmed(
    context,
    'update_reservation_passengers',
    { action: /\bpassenger|\bname\b|\bdate of birth\b|\bdob\b|\bupdat|\bchang/, details },
    (past) => past.reservation_id === args.reservation_id,
  );
};

const userIdObtained: PolicyCheck<UpdateReservationPassengersArgs> = (args, context) =>
  ownerNotObtained(context, args.reservation_id);

const countUnchanged: PolicyCheck<UpdateReservationPassengersArgs> = async (args, context) => {
  const reservation = await findReservation(context, args.reservation_id);
  if (reservation === undefined || reservation.passengers.length === args.passengers.length) return undefined;
  return {
    message: `the reservation has ${reservation.passengers.length} passengers, the update has ${args.passengers.length}: the number of passengers cannot change`,
  };
};

const details: PolicyCheck<UpdateReservationPassengersArgs> = (args) => incompletePassenger(args.passengers);

/** The checks of `update_reservation_passengers` by policy id. */
export const checks = {
  'passengers.user_confirmation': userConfirmation,
  'passengers.user_id_obtained': userIdObtained,
  'passengers.count_unchanged': countUnchanged,
  'passengers.details': details,
};
