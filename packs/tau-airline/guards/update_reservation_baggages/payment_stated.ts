/** `baggages.payment_stated`: Before the yes, the user was told what the bag change charges or refunds and with which payment method; where the conversation does not settle it, a person asks the user. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationBaggagesArgs } from '../../types.ts';
import { paymentUnsettled } from '../lib/airline.ts';
import { baggageTerms } from '../lib/terms.ts';

export const check: PolicyCheck<UpdateReservationBaggagesArgs> = async (args, context, call) =>
  paymentUnsettled(context, call, await baggageTerms(context, args));
