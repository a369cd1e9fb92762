import { quantile } from '../replay/report.ts';
import type { EpisodeResult } from './episode.ts';
import { isSuccess, passHatK } from './reward.ts';
import { type ModelAccount, ModelUsage } from './usage.ts';

/** The figures of one arm. */
export interface ArmSummary {
  arm: string;
  runs: number;
  tasks: number;
  averageReward: number;
  /** pass^k for k = 1 … trials. */
  passHatK: Record<number, number>;
  /** Runs that ended in an error (reward 0). */
  errors: number;
  /** Write calls the pack decided. */
  writeCalls: number;
  /** Write calls the pack did not allow (deny or ask), whether or not they ran. */
  writeCallsNotAllowed: number;
  /** Write calls that ran although the pack did not allow them (in shadow, all of those; guarded, approved asks). */
  violationsRan: number;
  /** Runs in which a write call ran against the pack's verdict. */
  runsWithViolation: number;
  /** Successful runs in which no write call ran against the pack's verdict. */
  successesWithinPolicy: number;
  /** Questions an `ask` verdict put to the simulated user. */
  asks: number;
  /** Write calls not allowed, by the policy that stopped them. */
  byPolicy: Record<string, number>;
  /** The guard's time on the write calls that record it (`duration_us`), in microseconds. */
  guardTime: GuardTime;
  /** The packs that decided the runs' verdicts, as `<path> (sha256 <first 12>)`, with `, decided again` where so. */
  decidedBy: string[];
  usage: Record<string, ModelAccount>;
}

/** The guard's time on an arm's write calls. */
export interface GuardTime {
  /** Write calls whose guard time is recorded. */
  calls: number;
  medianUs: number;
  p95Us: number;
  totalUs: number;
  /**
   * The guard's share of the runs' wall time, over the runs that record it and whose verdicts were decided in the run
   * (not again afterwards); undefined where there are none.
   */
  shareOfWallTime?: number;
}

function guardTime(runs: readonly EpisodeResult[]): GuardTime {
  const times = runs
    .flatMap((run) => run.info.verdicts.flatMap((verdict) => verdict.duration_us ?? []))
    .sort((a, b) => a - b);
  const time: GuardTime = {
    calls: times.length,
    medianUs: quantile(times, 0.5),
    p95Us: quantile(times, 0.95),
    totalUs: times.reduce((sum, us) => sum + us, 0),
  };
  let guardUs = 0;
  let wallMs = 0;
  for (const run of runs) {
    if (run.info.duration_ms === undefined || run.info.pack?.redecided) continue;
    wallMs += run.info.duration_ms;
    for (const verdict of run.info.verdicts) guardUs += verdict.duration_us ?? 0;
  }
  if (wallMs > 0) time.shareOfWallTime = guardUs / 1000 / wallMs;
  return time;
}

/**
 * Sums up one arm's runs.
 *
 * @example
 * ```ts
 * const summary = summarizeArm('guarded', runs, 3);
 * ```
 */
export function summarizeArm(arm: string, runs: readonly EpisodeResult[], trials: number): ArmSummary {
  const usage = new ModelUsage();
  const byPolicy: Record<string, number> = {};
  let writeCalls = 0;
  let writeCallsNotAllowed = 0;
  let violationsRan = 0;
  let runsWithViolation = 0;
  let successesWithinPolicy = 0;
  for (const run of runs) {
    usage.merge(run.info.usage);
    let violated = false;
    for (const verdict of run.info.verdicts) {
      writeCalls++;
      if (verdict.decision === 'allow') continue;
      writeCallsNotAllowed++;
      for (const policy of new Set(verdict.violations.map((violation) => violation.policy)))
        byPolicy[policy] = (byPolicy[policy] ?? 0) + 1;
      if (verdict.ran) {
        violationsRan++;
        violated = true;
      }
    }
    if (violated) runsWithViolation++;
    else if (isSuccess(run.reward)) successesWithinPolicy++;
  }
  return {
    arm,
    runs: runs.length,
    tasks: new Set(runs.map((run) => run.task_id)).size,
    averageReward: runs.length === 0 ? 0 : runs.reduce((sum, run) => sum + run.reward, 0) / runs.length,
    passHatK: passHatK(runs, trials),
    errors: runs.filter((run) => run.info.error !== undefined).length,
    writeCalls,
    writeCallsNotAllowed,
    violationsRan,
    runsWithViolation,
    successesWithinPolicy,
    asks: runs.reduce((sum, run) => sum + run.info.asks.length, 0),
    byPolicy,
    guardTime: guardTime(runs),
    decidedBy: [
      ...new Set(
        runs.flatMap(({ info: { pack } }) =>
          pack === undefined
            ? []
            : [`${pack.path} (sha256 ${pack.sha256.slice(0, 12)})${pack.redecided ? ', decided again' : ''}`],
        ),
      ),
    ].sort(),
    usage: usage.toJSON(),
  };
}

const figure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(3));
/** A guard time in milliseconds, or `-` where no call was timed. */
const milliseconds = (time: GuardTime, us: number) => (time.calls === 0 ? '-' : (us / 1000).toFixed(3));
const share = (value: number | undefined) => (value === undefined ? '-' : `${(value * 100).toFixed(2)}%`);

/**
 * The arms side by side: task success (average reward, pass^k), the pack's verdicts on write calls and its time deciding
 * them, which pack decided them, and the tokens each model spent.
 *
 * @example
 * ```ts
 * process.stdout.write(`${formatReport([guarded, unguarded])}\n`);
 * ```
 */
export function formatReport(summaries: readonly ArmSummary[], withPack: boolean): string {
  const width = 14;
  const row = (label: string, values: (summary: ArmSummary) => string) =>
    `${label.padEnd(36)}${summaries.map((summary) => values(summary).padStart(width)).join('')}`;
  const trials = Math.max(0, ...summaries.map((summary) => Object.keys(summary.passHatK).length));
  const lines = [
    row('', (summary) => summary.arm),
    row('runs (tasks)', (summary) => `${summary.runs} (${summary.tasks})`),
    row('average reward', (summary) => figure(summary.averageReward)),
  ];
  for (let k = 1; k <= trials; k++) lines.push(row(`pass^${k}`, (summary) => figure(summary.passHatK[k] ?? 0)));
  lines.push(row('runs ended by an error', (summary) => String(summary.errors)));
  if (withPack) {
    lines.push(
      row('write calls checked', (summary) => String(summary.writeCalls)),
      row('  not allowed by the pack', (summary) => String(summary.writeCallsNotAllowed)),
      row('  of those, ran anyway', (summary) => String(summary.violationsRan)),
      row('  per run', (summary) => figure(summary.runs === 0 ? 0 : summary.violationsRan / summary.runs)),
      row('runs with a violation that ran', (summary) => String(summary.runsWithViolation)),
      row('successes within policy', (summary) => String(summary.successesWithinPolicy)),
      row('asks put to the user', (summary) => String(summary.asks)),
      row('guard time: write calls timed', (summary) => String(summary.guardTime.calls)),
      row('  median per call (ms)', ({ guardTime }) => milliseconds(guardTime, guardTime.medianUs)),
      row('  p95 per call (ms)', ({ guardTime }) => milliseconds(guardTime, guardTime.p95Us)),
      row('  total (ms)', ({ guardTime }) => milliseconds(guardTime, guardTime.totalUs)),
      row("  share of the runs' wall time", (summary) => share(summary.guardTime.shareOfWallTime)),
      '',
      'verdicts decided by:',
      ...summaries.map(
        (summary) =>
          `  ${summary.arm.padEnd(10)} ${summary.decidedBy.length === 0 ? 'no pack recorded' : summary.decidedBy.join('; ')}`,
      ),
      '',
      'write calls not allowed, by policy:',
    );
    const policies = [...new Set(summaries.flatMap((summary) => Object.keys(summary.byPolicy)))].sort();
    if (policies.length === 0) lines.push('  none');
    for (const policy of policies) lines.push(row(`  ${policy}`, (summary) => String(summary.byPolicy[policy] ?? 0)));
  }
  lines.push('', 'models:');
  for (const summary of summaries) {
    for (const [model, account] of Object.entries(summary.usage)) {
      const mark = account.estimated ? '~' : '';
      lines.push(
        `  ${summary.arm.padEnd(10)} ${model}: ${account.calls} calls, ${mark}${account.inputTokens} input and ${mark}${account.outputTokens} output tokens`,
      );
    }
  }
  if (summaries.some((summary) => Object.values(summary.usage).some((account) => account.estimated)))
    lines.push('  (~: estimated from the text, about 4 characters a token; the model reported none)');
  return lines.join('\n');
}
