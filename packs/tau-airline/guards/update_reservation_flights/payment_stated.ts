/** `flights.payment_stated`: Before the yes, the user was told what the flight or cabin change charges or refunds and with which payment method; where the conversation does not settle it, a person asks the user. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationFlightsArgs } from '../../types.ts';
import { paymentUnsettled } from '../lib/agreement.ts';
import { after } from '../lib/maybe.ts';
import { flightChangeTerms } from '../lib/terms.ts';

export const check: PolicyCheck<UpdateReservationFlightsArgs> = (args, context, call) =>
  after(flightChangeTerms(context, args), (terms) => paymentUnsettled(context, call, terms));
