import { readFileSync } from 'node:fs';
import { AgentGuardError } from '../errors.ts';
import { packagePath } from '../package-root.ts';
import { domainDescriptionSource } from './domain-description-draft.ts';

/**
 * agentguard's reading of conversation facts into findings, shipped into generated packs as written (see `pack-lib/dialogue.ts`, which the
 * package carries as source); read when a pack is generated.
 */
const dialogueSource = () => readFileSync(packagePath('src/compiler/pack-lib/dialogue.ts'), 'utf8');

/** Checks a time zone offset for zone-less timestamps: `Z` or `±HH:MM`. */
export function checkTimeZone(zone: string): string {
  if (!/^(Z|[+-]\d{2}:\d{2})$/.test(zone)) {
    throw new AgentGuardError('invalid_input', `the time zone \`${zone}\` is not an offset such as -05:00 or Z`);
  }
  return zone;
}

/**
 * The helper modules agentguard offers every generated check when the user gives none: `guards/lib/domain.ts` (a
 * typed `lookup` over the pack's `Lookups`, and `timeOf`, which reads zone-less timestamps in the policy's time
 * zone), `guards/lib/dialogue.ts` (conversation facts into findings: a yes goes on, a no denies, unsure asks) and
 * `guards/lib/domain-description.ts` (how values may be referred to: `description`, the source of that module;
 * default, a description of no kinds). The first two are written without a model, so they cost no call and every
 * policy shares them.
 *
 * @example
 * ```ts
 * const helpers = domainHelpers('-05:00', domainDescriptionSource(draftDomainDescription(lookups)));
 * ```
 */
export function domainHelpers(
  timeZone = 'Z',
  description = domainDescriptionSource({ kinds: {} }),
): Map<string, string> {
  const zone = checkTimeZone(timeZone);
  const domain = `/** Helpers shared by this pack's checks. Written by agentguard. */
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
export const timeZone = '${zone}';

/**
 * Milliseconds since the epoch of an ISO 8601 date or timestamp; one without a zone is read in \`timeZone\`, a date
 * alone as its midnight. Compare with \`context.now.getTime()\`.
 */
export function timeOf(timestamp: string): number {
  const withTime = /^\\d{4}-\\d{2}-\\d{2}$/.test(timestamp) ? \`\${timestamp}T00:00:00\` : timestamp;
  return Date.parse(/(Z|[+-]\\d{2}:?\\d{2})$/i.test(withTime) ? withTime : \`\${withTime}\${timeZone}\`);
}
`;
  return new Map([
    ['guards/lib/domain.ts', domain],
    ['guards/lib/dialogue.ts', dialogueSource()],
    ['guards/lib/domain-description.ts', description],
  ]);
}
