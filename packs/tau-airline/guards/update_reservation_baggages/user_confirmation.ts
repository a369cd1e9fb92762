/** `baggages.user_confirmation`: Before changing the bags of a reservation, the agent lists the action details and the user answers with an explicit yes. One yes covers the actions it was given for, once. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationBaggagesArgs } from '../../types.ts';
import { unconfirmed } from '../lib/agreement.ts';
import { after } from '../lib/maybe.ts';
import { baggageTerms } from '../lib/terms.ts';

export const check: PolicyCheck<UpdateReservationBaggagesArgs> = (args, context, call) =>
  after(baggageTerms(context, args), (terms) =>
    unconfirmed(
      context,
      call,
      { action: /\bbag|\bluggage/, details: [args.reservation_id] },
      (past) => past.reservation_id === args.reservation_id,
      terms,
    ),
  );
