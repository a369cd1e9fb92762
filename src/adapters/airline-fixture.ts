/**
 * Test support for the framework adapters: the reviewed airline pack, a fresh airline (the tool port over its own
 * database) for each run with a log of the tools that ran, and the conversations the tests and examples start from.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GuardPack, loadPack } from '../pack/load-pack.ts';
import type { ToolSpec } from '../pack/tool-spec.ts';
import { type AirlineBackend, airlineBackend } from '../testing/airline-backend.ts';

/** The folder of the reviewed airline pack. */
export const airlinePackDir = fileURLToPath(new URL('../../packs/tau-airline/', import.meta.url));

/**
 * Loads the airline pack. `ask` lists policies whose effect becomes `ask` (a person approves what they would deny), as
 * an operator may decide for, say, cancellations outside the eligibility rules; the pack is then copied to a
 * temporary folder with its manifest changed.
 *
 * @example
 * ```ts
 * const pack = await airlinePack({ ask: ['cancel.eligibility'] });
 * ```
 */
export async function airlinePack(options: { ask?: readonly string[] } = {}): Promise<GuardPack> {
  const ask = options.ask ?? [];
  if (ask.length === 0) return loadPack(airlinePackDir);
  const dir = await mkdtemp(join(tmpdir(), 'agentguard-airline-'));
  await cp(airlinePackDir, dir, { recursive: true });
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as {
    guards: Record<string, { policies: { id: string; effect?: string }[] }>;
  };
  const found = new Set<string>();
  for (const guard of Object.values(manifest.guards)) {
    for (const policy of guard.policies) {
      if (ask.includes(policy.id) && policy.effect !== undefined) {
        policy.effect = 'ask';
        found.add(policy.id);
      }
    }
  }
  const missing = ask.filter((id) => !found.has(id));
  if (missing.length > 0) throw new Error(`the airline pack has no enforced policy ${missing.join(', ')}`);
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return loadPack(dir);
}

/** One airline for one agent run: the in-memory airline, with its stored state and its tools' specs. */
export interface Airline extends AirlineBackend {
  /** A reservation's status as stored now (`cancelled` once cancelled). */
  status(reservationId: string): Promise<string>;
  /** The specs of the airline's tools, by name. */
  specs(names: readonly string[]): ToolSpec[];
}

/** The reviewed airline pack, read once: it gives the tools' specs. */
let reviewedPack: Promise<GuardPack> | undefined;

/**
 * A fresh airline.
 *
 * @example
 * ```ts
 * const airline = await freshAirline();
 * airline.run('cancel_reservation', { reservation_id: 'VYAAQN' });
 * ```
 */
export async function freshAirline(): Promise<Airline> {
  reviewedPack ??= airlinePack();
  const [airline, pack] = await Promise.all([airlineBackend(), reviewedPack]);
  return {
    ...airline,
    async status(reservationId) {
      const reservation = (await airline.invoker.invoke('get_reservation_details', {
        reservation_id: reservationId,
      })) as { status?: string };
      return reservation.status ?? 'active';
    },
    specs(names) {
      return names.map((name) => {
        const spec = pack.tools.get(name)?.spec;
        if (spec === undefined) throw new Error(`the airline has no tool \`${name}\``);
        return spec;
      });
    },
  };
}

/** A line of a conversation, before it is written in a framework's own message format. */
export interface Line {
  role: 'user' | 'assistant';
  text: string;
}

/**
 * The opening of a cancellation: the user gives the user id, the reservation and a reason; with `confirmed`, the
 * assistant then lists the action and the user says yes.
 *
 * @example
 * ```ts
 * const lines = cancellationRequest('VYAAQN', 'evelyn_khan_9070', { confirmed: true });
 * ```
 */
export function cancellationRequest(reservationId: string, userId: string, options: { confirmed: boolean }): Line[] {
  const lines: Line[] = [
    { role: 'user', text: `Hi, I am ${userId}. Please cancel reservation ${reservationId}, my plans changed.` },
  ];
  if (!options.confirmed) return lines;
  return [
    ...lines,
    {
      role: 'assistant',
      text: `I will cancel reservation ${reservationId} and refund it to the original payment method. Shall I proceed (yes/no)?`,
    },
    { role: 'user', text: 'Yes, please go ahead.' },
  ];
}

/** A business reservation of `evelyn_khan_9070`, booked within the last 24 hours: cancellable once confirmed. */
export const cancellable = { reservationId: 'VYAAQN', userId: 'evelyn_khan_9070' } as const;

/** An economy reservation of `noah_lopez_2532` without insurance, booked a week before: not cancellable. */
export const notCancellable = { reservationId: '5XOFTB', userId: 'noah_lopez_2532' } as const;
