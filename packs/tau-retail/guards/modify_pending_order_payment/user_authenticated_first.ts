/** `modify_pending_order_payment.user_authenticated_first`: Before modify_pending_order_payment is called, the user's identity must have been authenticated in this conversation by locating their user id with find_user_id_by_email (email) or find_user_id_by_name_zip (first name, last name and zip code) from details the user gave, and the lookup must have returned a user id. A user id merely stated by the user does not count. */
import type { PolicyCheck } from 'agentguard';
import type { ModifyPendingOrderPaymentArgs } from '../../types.ts';
import { authenticationAttempts, locatedUserId } from '../lib/authentication.ts';

export const check: PolicyCheck<ModifyPendingOrderPaymentArgs> = async (args, context) => {
  const attempts = authenticationAttempts(context);
  if (attempts.some((past) => locatedUserId(past) !== undefined)) return undefined;

  return {
    message:
      `The user has not been authenticated: ` +
      (attempts.length === 0
        ? 'no find_user_id_by_email or find_user_id_by_name_zip call appears in the conversation'
        : `${attempts.length} authentication lookup(s) returned no user id (${attempts
            .map((past) => `${past.call.name}: ${past.result ?? 'no result'}`)
            .join('; ')})`) +
      `. A user id stated by the user does not count. Locate the user id by email, or by name and zip code, ` +
      `before changing the payment method of order ${args.order_id}.`,
    facts: {
      order_id: args.order_id,
      authentication_attempts: attempts.map((past) => ({
        tool: past.call.name,
        arguments: past.call.arguments,
        result: past.result ?? null,
      })),
    },
  };
};
