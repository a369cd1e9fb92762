// The backend the framework examples guard, written on agentguard's public API only: the tau-bench airline's
// reservations, users and flights (shipped under data/tau-airline/), held in memory. In production this is your own
// service; the guards need its read-only lookups to answer with the records of
// `agentguard/packs/tau-airline/guards/lib/records.ts` (see docs/guard-packs.md).
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GuardPack, loadPack, type ToolInvoker } from 'agentguard';
import type { Flight, Reservation, User } from 'agentguard/packs/tau-airline/guards/lib/records.ts';

/** The shipped airline pack's folder, found by module name. */
export const airlinePackDir = fileURLToPath(import.meta.resolve('agentguard/packs/tau-airline'));

async function records<Record>(file: string): Promise<{ [id: string]: Record }> {
  return JSON.parse(await readFile(new URL(`../data/tau-airline/${file}`, import.meta.url), 'utf8'));
}

/** The airline: its tools as the agent runs them, its lookups for the guards, its clock and what ran. */
export async function airlineBackend() {
  const [reservations, users, flights] = await Promise.all([
    records<Reservation>('reservations.json'),
    records<User>('users.json'),
    records<Flight>('flights.json'),
  ]);
  const lookups: { [tool: string]: (args: { [key: string]: string }) => unknown } = {
    get_reservation_details: ({ reservation_id = '' }) => reservations[reservation_id],
    get_user_details: ({ user_id = '' }) => users[user_id],
    get_flight_on_date_details: ({ flight_number = '', date = '' }) => {
      const found = flights[flight_number];
      const onDate = found?.dates[date];
      if (found === undefined || onDate === undefined) return undefined;
      const { dates: _, ...flight } = found;
      return { ...flight, date, ...onDate };
    },
  };
  const ran: { tool: string; args: { [key: string]: unknown } }[] = [];
  const invoker: ToolInvoker = {
    async invoke(tool, args) {
      const found = lookups[tool]?.(args as { [key: string]: string });
      if (found === undefined) throw new Error(`no record for \`${tool}\` ${JSON.stringify(args)}`);
      return found;
    },
  };
  return {
    ran,
    invoker,
    /** The airline's clock: tau-bench's data speak of 2024-05-15 15:00 EST. */
    now: new Date('2024-05-15T15:00:00-05:00'),
    /** Runs a write as the agent sees it: JSON text. */
    run(tool: 'cancel_reservation', args: { reservation_id: string }): string {
      ran.push({ tool, args });
      const reservation = reservations[args.reservation_id];
      if (reservation === undefined) return 'Error: reservation not found';
      reservation.status = 'cancelled';
      return JSON.stringify(reservation);
    },
  };
}

/**
 * The shipped airline pack with some policies' effect set to `ask`, as an operator may decide that, say,
 * cancellations outside the eligibility rules go to a supervisor: a copy with its manifest changed. The copy is no
 * longer the reviewed pack, so its guards run in a worker thread (`runtime.close()` stops it).
 */
export async function airlinePackWithAsk(policies: readonly string[]): Promise<GuardPack> {
  const dir = await mkdtemp(join(tmpdir(), 'airline-pack-'));
  await cp(airlinePackDir, dir, { recursive: true });
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  for (const guard of Object.values(manifest.guards) as { policies: { id: string; effect?: string }[] }[]) {
    for (const policy of guard.policies) if (policies.includes(policy.id)) policy.effect = 'ask';
  }
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return loadPack(dir);
}
