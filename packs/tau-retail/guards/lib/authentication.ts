/**
 * How a conversation authenticates the user: a lookup that locates their user id by email, or by name and zip code,
 * and returns one. A user id the user merely states does not count. Written in review, for the `…_first` policies of
 * every tool that acts for the user, and for `orders.ts`.
 */
import type { GuardContext, PastToolCall } from 'agentguard';

/** The lookups that authenticate a user by locating their user id. */
const authenticationLookups: readonly string[] = ['find_user_id_by_email', 'find_user_id_by_name_zip'];

/** The authentication lookups made in the conversation before the call, oldest first, whatever they returned. */
export function authenticationAttempts(context: GuardContext): PastToolCall[] {
  return context.conversation.toolCalls().filter((past) => authenticationLookups.includes(past.call.name));
}

/**
 * The user id an authentication lookup located: its result, trimmed, read as a JSON string where it is one
 * ("\"noah_brown_6181\""); undefined when it failed or returned nothing.
 */
export function locatedUserId(past: PastToolCall): string | undefined {
  let result = past.result?.trim();
  if (result?.startsWith('"') === true) {
    try {
      const parsed: unknown = JSON.parse(result);
      result = typeof parsed === 'string' ? parsed.trim() : undefined;
    } catch {
      result = undefined;
    }
  }
  return result === undefined || result === '' || result.startsWith('Error') ? undefined : result;
}
