/** `book.insurance_offered`: Before booking, the agent has asked whether the user wants travel insurance (or the user has said so). */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';

export const check: PolicyCheck<BookReservationArgs> = (_args, context) => {
  const { conversation } = context;
  const settled =
    conversation.askedAbout(['insurance']).answer === 'yes' ||
    // The user spoke of insurance on their own: named it, or ruled it out ("I don't want travel insurance").
    conversation.stated({ value: 'insurance' }).answer !== 'unsure';
  return settled ? undefined : { message: 'the agent has not asked whether the user wants travel insurance' };
};
