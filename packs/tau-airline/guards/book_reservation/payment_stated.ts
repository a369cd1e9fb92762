/** `book.payment_stated`: Before the yes, the user was told what the booking charges or refunds and with which payment method; where the conversation does not settle it, a person asks the user. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { paymentUnsettled } from '../lib/agreement.ts';
import { after } from '../lib/maybe.ts';
import { bookingTerms } from '../lib/terms.ts';

export const check: PolicyCheck<BookReservationArgs> = (args, context, call) =>
  after(bookingTerms(context, args), (terms) => paymentUnsettled(context, call, terms));
