/** `passengers.user_confirmation`: Before changing the passengers of a reservation, the agent lists the action details and the user answers with an explicit yes. One yes covers the actions it was given for, once. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationPassengersArgs } from '../../types.ts';
import { unconfirmed } from '../lib/agreement.ts';

export const check: PolicyCheck<UpdateReservationPassengersArgs> = (args, context, call) => {
  const details = [args.reservation_id, ...args.passengers.map((passenger) => passenger.first_name)];
  return unconfirmed(
    context,
    call,
    { action: /\bpassenger|\bname\b|\bdate of birth\b|\bdob\b|\bupdat|\bchang/, details },
    (past) => past.reservation_id === args.reservation_id,
  );
};
