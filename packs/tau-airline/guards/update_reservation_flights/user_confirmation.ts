/** `flights.user_confirmation`: Before changing the flights or cabin of a reservation, the agent lists the action details and the user answers with an explicit yes. One yes covers the actions it was given for, once. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationFlightsArgs } from '../../types.ts';
import { unconfirmed } from '../lib/agreement.ts';
import { after } from '../lib/maybe.ts';
import { flightChangeTerms } from '../lib/terms.ts';

export const check: PolicyCheck<UpdateReservationFlightsArgs> = (args, context, call) => {
  const details = [args.reservation_id, ...args.flights.map((flight) => flight.flight_number)];
  return after(flightChangeTerms(context, args), (terms) =>
    unconfirmed(
      context,
      call,
      { action: /\b(chang|modif|updat|upgrad|downgrad|switch|rebook)|\bcabin\b|\bflights?\b|\bpayment\b/, details },
      (past) => past.reservation_id === args.reservation_id,
      terms,
    ),
  );
};
