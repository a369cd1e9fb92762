// The airline pack the framework examples guard with, written on agentguard's public API only. Their backend is
// `airlineBackend()` from `agentguard/testing`, the tau-bench airline held in memory; in production it is your own
// service, whose read-only lookups answer with the records of `agentguard/packs/tau-airline/guards/lib/records.ts`
// (see docs/guard-packs.md).
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GuardPack, loadPack } from 'agentguard';

/** The shipped airline pack's folder, found by module name. */
const airlinePackDir = fileURLToPath(import.meta.resolve('agentguard/packs/tau-airline'));

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
