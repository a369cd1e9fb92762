/** `passengers.user_id_obtained`: The reservation exists and the user has given the user id that owns it before the agent changes it. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationPassengersArgs } from '../../types.ts';
import { ownerNotObtained } from '../lib/airline.ts';

export const check: PolicyCheck<UpdateReservationPassengersArgs> = (args, context) =>
  ownerNotObtained(context, args.reservation_id);
