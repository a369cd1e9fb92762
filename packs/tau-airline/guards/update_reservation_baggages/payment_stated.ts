/** `baggages.payment_stated`: Before the yes, the user was told what the bag change charges or refunds and with which payment method; where the conversation does not settle it, a person asks the user. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationBaggagesArgs } from '../../types.ts';
import { paymentUnsettled } from '../lib/agreement.ts';
import { after } from '../lib/maybe.ts';
import { baggageTerms } from '../lib/terms.ts';

export const check: PolicyCheck<UpdateReservationBaggagesArgs> = (args, context, call) =>
  after(baggageTerms(context, args), (terms) => paymentUnsettled(context, call, terms));
