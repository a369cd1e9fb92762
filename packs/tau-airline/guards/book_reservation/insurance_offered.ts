/** `book.insurance_offered`: Before booking, the agent has asked whether the user wants travel insurance (or the user has said so). */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { readMessage } from '../lib/reading.ts';

export const check: PolicyCheck<BookReservationArgs> = (_args, context) => {
  const mentioned = context.conversation
    .readEach(readMessage)
    .some((said) => (said.role === 'assistant' || said.role === 'user') && said.mentionsInsurance);
  return mentioned ? undefined : { message: 'the agent has not asked whether the user wants travel insurance' };
};
