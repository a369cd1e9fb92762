/** `baggages.user_confirmation`: Before changing the bags of a reservation, the agent lists the action details and the user answers with an explicit yes. One yes covers the actions it was given for, once. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationBaggagesArgs } from '../../types.ts';
import { unconfirmed } from '../lib/airline.ts';

export const check: PolicyCheck<UpdateReservationBaggagesArgs> = (args, context) => {
  return unconfirmed(
    context,
    'update_reservation_baggages',
    { action: /\bbag|\bluggage/, details: [args.reservation_id] },
    (past) => past.reservation_id === args.reservation_id,
  );
};
