/** Helpers shared by this pack's checks. Written by agentguard. */
import type { GuardContext } from 'agentguard';
import type { Lookups } from '../../types.ts';

/**
 * Calls a read-only lookup with typed arguments and result. Rejects when the lookup fails (no such record), which
 * denies the call unless the check catches it.
 */
export async function lookup<Name extends keyof Lookups & string>(
  context: GuardContext,
  tool: Name,
  args: Lookups[Name]['args'],
): Promise<Lookups[Name]['result']> {
  const result = await context.invoker.invoke(tool, args as unknown as Record<string, unknown>);
  return result as Lookups[Name]['result'];
}

/** The time zone of timestamps that carry none, in this policy's records and arguments. */
export const timeZone = 'Z';

/**
 * Milliseconds since the epoch of an ISO 8601 date or timestamp; one without a zone is read in `timeZone`, a date
 * alone as its midnight. Compare with `context.now.getTime()`.
 */
export function timeOf(timestamp: string): number {
  const withTime = /^\d{4}-\d{2}-\d{2}$/.test(timestamp) ? `${timestamp}T00:00:00` : timestamp;
  return Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(withTime) ? withTime : `${withTime}${timeZone}`);
}
