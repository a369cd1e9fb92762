/** `cancel.user_confirmation`: Before cancelling a reservation, the agent lists the action details and the user answers with an explicit yes. One yes covers the actions it was given for, once. */
import type { PolicyCheck } from 'agentguard';
import type { CancelReservationArgs } from '../../types.ts';
import { unconfirmed } from '../lib/agreement.ts';
import { findReservation } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<CancelReservationArgs> = (args, context, call) =>
  after(findReservation(context, args.reservation_id), (reservation) => {
    const details = [args.reservation_id, ...(reservation?.flights.map((flight) => flight.flight_number) ?? [])];
    return unconfirmed(
      context,
      call,
      { action: /\bcancel/, details },
      (past) => past.reservation_id === args.reservation_id,
    );
  });
