import type { Conversation } from './conversation.ts';

/**
 * Read-only access to the lookup tools of a domain. Guards call it to read the state a policy speaks of.
 *
 * @example
 * ```ts
 * const reservation = await invoker.invoke('get_reservation_details', { reservation_id: 'ZFA04Y' });
 * ```
 */
export interface ToolInvoker {
  /** Runs a lookup tool and returns its result; throws when the tool fails or is not a lookup. */
  invoke(tool: string, args: Record<string, unknown>): Promise<unknown>;
  /**
   * The same lookup answered at once, for backends in the same process (an in-memory database): guards that find it
   * decide without waiting on a promise. Throws where `invoke` would reject. Optional: guards fall back to `invoke`.
   */
  invokeNow?(tool: string, args: Record<string, unknown>): unknown;
}

/** Everything a guard may use besides the call's arguments. */
export interface GuardContext {
  /** The conversation before the call. */
  conversation: Conversation;
  /** Read-only lookups. */
  invoker: ToolInvoker;
  /** The current time as the policy speaks of it. */
  now: Date;
}
