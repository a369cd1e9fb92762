import type { ToolInvoker } from '../model/guard-context.ts';
import { type EnvironmentFactory, environmentFor } from '../replay/environment.ts';

/** The tau-bench airline held in memory: its tools as the agent runs them, lookups for guards, its clock, what ran. */
export interface AirlineBackend {
  /** Runs one of the airline's 14 tools and returns what the agent sees: JSON text, or `Error: …`. */
  run(tool: string, args: Record<string, unknown>): string;
  /** The tools that ran through `run`, in order, with their arguments. */
  readonly ran: { tool: string; args: Record<string, unknown> }[];
  /** The guards' read-only lookups, including `get_flight_on_date_details`, which the agent has no tool for. */
  invoker: ToolInvoker;
  /** The airline's clock: tau-bench's data speak of 2024-05-15 15:00 EST. */
  now: Date;
}

/** The airline's data, read once: each backend then copies it. */
let airlineData: Promise<EnvironmentFactory | undefined> | undefined;

/**
 * A fresh in-memory airline over the tau-bench data the package ships (users, reservations, flights), on the faithful
 * port of its tools: the backend the README and the examples guard, and a stand-in for your own in tests. Each call
 * gives its own copy of the data, so writes of one never show in another.
 *
 * @example
 * ```ts
 * const airline = await airlineBackend();
 * airline.run('cancel_reservation', { reservation_id: 'VYAAQN' });
 * await airline.invoker.invoke('get_reservation_details', { reservation_id: 'VYAAQN' }); // status: cancelled
 * ```
 */
export async function airlineBackend(): Promise<AirlineBackend> {
  airlineData ??= environmentFor('tau-airline');
  const fresh = await airlineData;
  if (fresh === undefined) throw new Error('no environment for the domain `tau-airline`');
  const environment = fresh();
  const ran: AirlineBackend['ran'] = [];
  return {
    ran,
    invoker: environment.invoker,
    now: environment.now,
    run(tool, args) {
      ran.push({ tool, args });
      return environment.run(tool, args);
    },
  };
}
