import type { ReplayResult } from './replay.ts';

/** Value at quantile `q` (0..1) of sorted numbers, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

/** The figures of a replay, for the report and for JSON output. */
export interface ReplaySummary {
  trajectories: number;
  calls: number;
  writeCalls: number;
  verdicts: Record<string, number>;
  /** Write calls not allowed, by the policy that stopped them (a call can count under several). */
  denialsByPolicy: Record<string, number>;
  /** Trajectories with at least one write call not allowed. */
  trajectoriesAffected: number;
  latencyUs: { all: { p50: number; p99: number }; writes: { p50: number; p99: number } };
  faithfulness: {
    compared: number;
    same: number;
    addressRename: number;
    different: number;
    /** Every call whose recomputed result differs from the recorded one, and how. */
    mismatches: { trajectory: string; message_index: number; call_index: number; tool: string; kind: string }[];
  };
}

/**
 * Sums up a replay.
 *
 * @example
 * ```ts
 * const summary = summarize(result, new Set(['cancel_reservation']));
 * ```
 */
export function summarize(result: ReplayResult, writeTools: ReadonlySet<string>): ReplaySummary {
  const verdicts: Record<string, number> = { allow: 0, deny: 0, ask: 0 };
  const denialsByPolicy: Record<string, number> = {};
  const affected = new Set<string>();
  const all: number[] = [];
  const writes: number[] = [];
  let writeCalls = 0;
  for (const line of result.lines) {
    verdicts[line.verdict] = (verdicts[line.verdict] ?? 0) + 1;
    all.push(line.duration_us);
    if (!writeTools.has(line.tool)) continue;
    writeCalls++;
    writes.push(line.duration_us);
    if (line.verdict === 'allow') continue;
    affected.add(line.trajectory);
    for (const policy of new Set(line.violations.map((violation) => violation.policy))) {
      denialsByPolicy[policy] = (denialsByPolicy[policy] ?? 0) + 1;
    }
  }
  all.sort((a, b) => a - b);
  writes.sort((a, b) => a - b);
  const renames = result.mismatches.filter((mismatch) => mismatch.kind === 'address_rename').length;
  return {
    trajectories: result.trajectories,
    calls: result.lines.length,
    writeCalls,
    verdicts,
    denialsByPolicy,
    trajectoriesAffected: affected.size,
    latencyUs: {
      all: { p50: quantile(all, 0.5), p99: quantile(all, 0.99) },
      writes: { p50: quantile(writes, 0.5), p99: quantile(writes, 0.99) },
    },
    faithfulness: {
      compared: result.compared,
      same: result.compared - result.mismatches.length,
      addressRename: renames,
      different: result.mismatches.length - renames,
      mismatches: result.mismatches.map(({ trajectory, message_index, call_index, tool, kind }) => ({
        trajectory,
        message_index,
        call_index,
        tool,
        kind,
      })),
    },
  };
}

/** The summary as a readable report. */
export function formatSummary(summary: ReplaySummary, result: ReplayResult): string {
  const lines = [
    `trajectories replayed   ${summary.trajectories}`,
    `tool calls checked      ${summary.calls} (${summary.writeCalls} write calls)`,
    `verdicts                allow ${summary.verdicts.allow}, deny ${summary.verdicts.deny}, ask ${summary.verdicts.ask}`,
    `trajectories affected   ${summary.trajectoriesAffected} with a write call not allowed`,
    `guard latency (all)     p50 ${summary.latencyUs.all.p50} µs, p99 ${summary.latencyUs.all.p99} µs (one cold pass; warm figures: npm run bench)`,
    `guard latency (writes)  p50 ${summary.latencyUs.writes.p50} µs, p99 ${summary.latencyUs.writes.p99} µs`,
    '',
    'write calls not allowed, by policy:',
  ];
  const byPolicy = Object.entries(summary.denialsByPolicy).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (byPolicy.length === 0) lines.push('  none');
  for (const [policy, count] of byPolicy) lines.push(`  ${String(count).padStart(5)}  ${policy}`);
  const { compared, same, addressRename, different } = summary.faithfulness;
  lines.push(
    '',
    `faithfulness: ${compared} recorded results compared, ${same} reproduced, ${addressRename} differ only by the known address rename (province → state), ${different} differ otherwise`,
  );
  const renamed = result.mismatches.filter((item) => item.kind === 'address_rename');
  if (renamed.length > 0) {
    const places = renamed.map((item) => `${item.trajectory}@${item.message_index}`);
    lines.push(
      `  address rename in: ${places.slice(0, 12).join(', ')}${places.length > 12 ? `, and ${places.length - 12} more (agentguard replay --json lists them all)` : ''}`,
    );
  }
  for (const mismatch of result.mismatches.filter((item) => item.kind === 'different')) {
    lines.push(
      `  ${mismatch.trajectory} message ${mismatch.message_index} call ${mismatch.call_index} ${mismatch.tool}`,
      `    recorded:   ${mismatch.recorded.slice(0, 300)}`,
      `    recomputed: ${mismatch.recomputed.slice(0, 300)}`,
    );
  }
  return lines.join('\n');
}
