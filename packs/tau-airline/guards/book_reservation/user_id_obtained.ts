/** `book.user_id_obtained`: The user id of the booking user exists and the user gave it in the conversation. */
import type { PolicyCheck } from 'agentguard';
import type { BookReservationArgs } from '../../types.ts';
import { findUser, userMentioned } from '../lib/airline.ts';
import { after } from '../lib/maybe.ts';

export const check: PolicyCheck<BookReservationArgs> = (args, context) =>
  after(findUser(context, args.user_id), (user) => {
    if (user === undefined) return { message: `user ${args.user_id} does not exist` };
    if (!userMentioned(context, args.user_id)) return { message: `the user has not given the user id ${args.user_id}` };
    return undefined;
  });
