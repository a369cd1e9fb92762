import type { ToolInvoker } from '../model/guard-context.ts';
import { domainNames, loadDomain } from '../tau/domain.ts';

/** A domain's tools over a fresh database: what a replay applies recorded calls to. */
export interface Environment {
  /** Runs a tool and returns what the agent would see. */
  run(tool: string, args: Record<string, unknown>): string;
  /** Read-only lookups for guards. */
  invoker: ToolInvoker;
  /** The domain's clock. */
  now: Date;
}

/** Makes a fresh environment for each replayed run. */
export type EnvironmentFactory = () => Environment;

/**
 * What a replay or a check needs at least: read-only lookups for guards; a domain whose tools agentguard ships also
 * runs the recorded calls (so the state follows a replayed run) and brings its clock.
 */
export type Lookups = Pick<Environment, 'invoker'> & Partial<Omit<Environment, 'invoker'>>;

/** Makes fresh lookups for each replayed run. */
export type LookupsFactory = () => Lookups;

/**
 * The environment factory of a known domain (`tau-airline`, `tau-retail`), or undefined.
 *
 * @example
 * ```ts
 * const fresh = await environmentFor('tau-airline');
 * const environment = fresh?.();
 * ```
 */
export async function environmentFor(domain: string): Promise<EnvironmentFactory | undefined> {
  const name = domainNames.find((candidate) => domain === `tau-${candidate}`);
  if (name === undefined) return undefined;
  const tau = await loadDomain(name);
  return () => {
    const environment = tau.fresh();
    return { run: environment.run, invoker: environment.invoker, now: tau.now };
  };
}
