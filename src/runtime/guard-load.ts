import { AgentGuardError } from '../errors.ts';
import type { GuardPack } from '../pack/load-pack.ts';
import { GuardRuntime } from './guard-runtime.ts';

/** An enforced policy whose check cannot be loaded where the runtime runs it: every call of its tool is denied. */
export interface GuardLoadFailure {
  /** The pack's domain. */
  pack: string;
  tool: string;
  policy: string;
  reason: string;
}

/**
 * The error that names every enforced policy whose check cannot be loaded, with why.
 *
 * @example
 * ```ts
 * const failures = await runtime.loadFailures();
 * if (failures.length > 0) throw guardLoadError(failures);
 * ```
 */
export function guardLoadError(failures: readonly GuardLoadFailure[]): AgentGuardError {
  const listed = failures
    .map(
      (failure) => `policy \`${failure.policy}\` of \`${failure.pack}\` (tool \`${failure.tool}\`): ${failure.reason}`,
    )
    .join('; ');
  return new AgentGuardError(
    'invalid_pack',
    `${failures.length} enforced ${failures.length === 1 ? 'policy' : 'policies'} cannot be loaded, so every call they guard would be denied: ${listed}`,
  );
}

/**
 * Loads every guard of the packs the way the runtime will run them (reviewed code in this thread, other code in a
 * worker) and throws `guardLoadError` when an enforced policy's check cannot be loaded. Commands that serve call it
 * before they take calls.
 *
 * @example
 * ```ts
 * await assertGuardsLoad([await loadPack('packs/tau-airline')]);
 * ```
 */
export async function assertGuardsLoad(packs: readonly GuardPack[]): Promise<void> {
  const runtime = new GuardRuntime(packs);
  try {
    const failures = await runtime.loadFailures();
    if (failures.length > 0) throw guardLoadError(failures);
  } finally {
    await runtime.close();
  }
}
