/** `passengers.details`: Every passenger has a first name, a last name and a date of birth. */
import type { PolicyCheck } from 'agentguard';
import type { UpdateReservationPassengersArgs } from '../../types.ts';
import { incompletePassenger } from '../lib/airline.ts';

export const check: PolicyCheck<UpdateReservationPassengersArgs> = (args) => incompletePassenger(args.passengers);
