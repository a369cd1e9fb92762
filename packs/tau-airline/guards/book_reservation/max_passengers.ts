/** `book.max_passengers`: A reservation has at most five passengers. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';

export const check: PolicyCheck<BookReservationArgs> = (args) =>
  args.passengers.length > 5
    ? { message: `${args.passengers.length} passengers: a reservation can have at most five` }
    : undefined;
