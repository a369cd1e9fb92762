/** `baggages.user_id_obtained`: The reservation exists and the user has given the user id that owns it before the agent changes it. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationBaggagesArgs } from '../../types.ts';
import { ownerNotObtained } from '../lib/airline.ts';

export const check: PolicyCheck<UpdateReservationBaggagesArgs> = (args, context) =>
  ownerNotObtained(context, args.reservation_id);
