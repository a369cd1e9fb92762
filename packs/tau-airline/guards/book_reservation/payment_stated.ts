/** `book.payment_stated`: Before the yes, the user was told what the booking charges or refunds and with which payment method; where the conversation does not settle it, a person asks the user. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { paymentUnsettled } from '../lib/airline.ts';
import { bookingTerms } from '../lib/terms.ts';

export const check: PolicyCheck<BookReservationArgs> = async (args, context, call) =>
  paymentUnsettled(context, call, await bookingTerms(context, args));
