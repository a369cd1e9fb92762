/** `cancel.reason_obtained`: The user has said why they cancel: change of plan, airline cancelled flight, or another reason. */
import type { PolicyCheck } from 'agentguard';
import type { CancelReservationArgs } from '../../types.ts';
import { reasonGiven } from '../lib/airline.ts';

export const check: PolicyCheck<CancelReservationArgs> = (_args, context) => {
  const given = reasonGiven(context);
  if (given.answer === 'yes') return undefined;
  const ask = 'ask for the reason (change of plan, airline cancelled flight, or other)';
  if (given.answer === 'no') return { message: `${given.reason}: ${ask}` };
  return {
    message: `the user has not said why they cancel: ${ask}`,
    ask: 'Why do you want to cancel: a change of plan, a flight the airline cancelled, or another reason?',
  };
};
