/** `book.passenger_details`: Every passenger has a first name, a last name and a date of birth. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { incompletePassenger } from '../lib/airline.ts';

export const check: PolicyCheck<BookReservationArgs> = (args) => incompletePassenger(args.passengers);
