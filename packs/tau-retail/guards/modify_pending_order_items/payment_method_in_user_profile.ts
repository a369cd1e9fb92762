/** `modify_pending_order_items.payment_method_in_user_profile`: payment_method_id must be one of the payment methods in the authenticated user's profile (get_user_details(user_id).payment_methods). */
import type { PolicyCheck } from 'agentguard';
import type { GetUserDetailsResult, ModifyPendingOrderItemsArgs } from '../../types.ts';
import { lookup } from '../lib/domain.ts';

/** The user id a find_user_id_by_email / find_user_id_by_name_zip result names, or undefined for an error or no result. */
function locatedUserId(result: string | undefined): string | undefined {
  if (result === undefined) return undefined;
  const trimmed = result.trim();
  if (trimmed === '' || trimmed.startsWith('Error')) return undefined;
  if (trimmed.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return typeof parsed === 'string' && parsed !== '' ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return trimmed;
}

export const check: PolicyCheck<ModifyPendingOrderItemsArgs> = async (args, context) => {
  // The authenticated user: the first user id located by an authentication lookup in this conversation.
  let userId: string | undefined;
  for (const past of context.conversation.toolCalls()) {
    const name = past.call.name;
    if (name !== 'find_user_id_by_email' && name !== 'find_user_id_by_name_zip') continue;
    userId = locatedUserId(past.result);
    if (userId !== undefined) break;
  }
  if (userId === undefined) {
    return {
      message: `No user has been authenticated in this conversation, so payment method ${args.payment_method_id} cannot be verified to be in the user's profile; authenticate the user first.`,
      facts: { payment_method_id: args.payment_method_id, authenticated_user_id: null },
    };
  }

  let user: GetUserDetailsResult;
  try {
    user = await lookup(context, 'get_user_details', { user_id: userId });
  } catch (error) {
    return {
      message: `The profile of user ${userId} could not be looked up, so payment method ${args.payment_method_id} cannot be verified to be in it.`,
      facts: { user_id: userId, payment_method_id: args.payment_method_id, error: String(error) },
    };
  }

  const profileIds: string[] = [];
  for (const [key, method] of Object.entries(user.payment_methods)) {
    if (method === undefined) continue;
    profileIds.push(method.id === key ? key : method.id);
    if (method.id !== key) profileIds.push(key);
  }
  if (!profileIds.includes(args.payment_method_id)) {
    return {
      message: `Payment method ${args.payment_method_id} is not in the profile of the authenticated user ${userId} (profile has: ${profileIds.join(', ') || 'none'}). Ask the user to choose one of the payment methods in their profile, then call again.`,
      facts: { user_id: userId, payment_method_id: args.payment_method_id, profile_payment_methods: profileIds },
    };
  }
  return undefined;
};
