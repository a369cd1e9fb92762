/** `cancel.reason_obtained`: The user has said why they cancel: change of plan, airline cancelled flight, or another reason. */
import type { PolicyCheck } from 'agentguard';
import type { CancelReservationArgs } from '../../types.ts';
import { reasonGiven } from '../lib/airline.ts';

export const check: PolicyCheck<CancelReservationArgs> = (_args, context) => {
  if (reasonGiven(context)) return undefined;
  return {
    message:
      'the user has not said why they cancel: ask for the reason (change of plan, airline cancelled flight, or other)',
  };
};
