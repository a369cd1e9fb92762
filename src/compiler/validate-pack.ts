import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomically } from '../files.ts';
import { loadPack } from '../pack/load-pack.ts';
import { type Manifest, manifestSchema } from '../pack/manifest.ts';
import type { EnvironmentFactory } from '../replay/environment.ts';
import { replay } from '../replay/replay.ts';
import type { Trajectory } from '../replay/trajectories.ts';
import { KeepingRuntime } from './keeping-runtime.ts';

/** A pack's denial rates over recorded runs, as the manifest's `validation` field holds them. */
export type PackValidation = NonNullable<Manifest['validation']>;

/**
 * Validates a generated pack on traffic: replays recorded runs through it in shadow mode (nothing blocked) and
 * counts, per enforced policy, the calls of its tool it would refuse, and how often its answer came up: `yes` (no
 * finding), `no` (a finding that denies) or `unsure` (a finding that asks). A policy that refuses more than
 * `threshold` of its tool's calls is flagged for review; the result is written to the manifest's `validation` field
 * and returned.
 *
 * @example
 * ```ts
 * const validation = await validatePack('out', await readTrajectories('runs.json'), fresh);
 * ```
 */
export async function validatePack(
  dir: string,
  runs: readonly Trajectory[],
  fresh: EnvironmentFactory,
  threshold = 0.5,
): Promise<PackValidation> {
  const pack = await loadPack(dir);
  const runtime = new KeepingRuntime([pack], { shadow: true, notEnforced: 'allow' });
  let result: Awaited<ReturnType<typeof replay>>;
  try {
    result = await replay(runtime, runs, fresh);
  } finally {
    await runtime.close();
  }
  const policies: PackValidation['policies'] = {};
  for (const [tool, entry] of Object.entries(pack.manifest.guards)) {
    const calls = result.lines.filter((line) => line.tool === tool);
    const verdicts = runtime.verdicts.filter((verdict) => verdict.tool === tool);
    for (const policy of entry.policies.filter((item) => item.state === 'enforced')) {
      const denied = calls.filter((line) => line.violations.some((violation) => violation.policy === policy.id)).length;
      const denialRate = calls.length === 0 ? 0 : denied / calls.length;
      const effects = verdicts.flatMap((verdict) =>
        verdict.violations.filter((violation) => violation.policy === policy.id).map((violation) => violation.effect),
      );
      const unsure = effects.filter((effect) => effect === 'ask').length;
      const answers = { yes: verdicts.length - effects.length, no: effects.length - unsure, unsure };
      policies[policy.id] = { tool, calls: calls.length, denied, denialRate, flagged: denialRate > threshold, answers };
    }
  }
  const validation: PackValidation = { runs: runs.length, threshold, policies };
  const file = join(dir, 'manifest.json');
  const manifest = manifestSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  await writeAtomically(file, `${JSON.stringify({ ...manifest, validation }, null, 2)}\n`);
  return validation;
}

/** The validation as report lines: each policy's denial rate, flagged ones marked. */
export function formatValidation(validation: PackValidation): string[] {
  const lines = [`denial rates over ${validation.runs} recorded runs (shadow mode):`];
  for (const [policy, figures] of Object.entries(validation.policies)) {
    lines.push(
      `  ${figures.flagged ? 'REVIEW' : '      '} ${String(figures.denied).padStart(4)}/${String(figures.calls).padEnd(4)} ${(figures.denialRate * 100).toFixed(0).padStart(3)}%  ${policy}${figures.answers === undefined ? '' : ` (yes ${figures.answers.yes}, no ${figures.answers.no}, unsure ${figures.answers.unsure})`}`,
    );
  }
  const flagged = Object.values(validation.policies).filter((figures) => figures.flagged).length;
  lines.push(
    `  ${flagged} polic${flagged === 1 ? 'y refuses' : 'ies refuse'} more than ${validation.threshold * 100}% of their tool's recorded calls: review ${flagged === 1 ? 'it' : 'them'} (manifest.json, validation)`,
  );
  return lines;
}
