/** `book.insurance_offered`: Before booking, the agent has asked whether the user wants travel insurance (or the user has said so). */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';

export const check: PolicyCheck<BookReservationArgs> = (_args, context) => {
  const mentioned = context.conversation.messages.some(
    (message) => (message.role === 'assistant' || message.role === 'user') && /insurance/i.test(message.text),
  );
  return mentioned ? undefined : { message: 'the agent has not asked whether the user wants travel insurance' };
};
