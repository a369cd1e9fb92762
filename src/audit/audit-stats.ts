import type { Decision } from '../model/verdict.ts';
import { quantile } from '../replay/report.ts';
import type { AuditLog } from './audit-log.ts';
import { type AskAnswer, type AskOutcomeRecord, type AuditRecord, isAskOutcomeRecord } from './audit-record.ts';

/** Counts of one tool's verdicts. */
export interface ToolStats {
  calls: number;
  allow: number;
  deny: number;
  ask: number;
}

/** How the asks of a log were settled: per answer, and how many of those calls then ran. */
export type AskStats = Record<AskAnswer, { count: number; ran: number }>;

/** What an audit log holds, summed up. */
export interface AuditStats {
  /** Verdict records (outcomes of asks not counted). */
  records: number;
  first?: string;
  last?: string;
  decisions: Record<Decision, number>;
  tools: Record<string, ToolStats>;
  /** How often each policy was violated (faults included). */
  policies: Record<string, number>;
  /** Decision time over all records, in microseconds. */
  durationUs: { p50: number; p99: number };
  /** The recorded outcomes of asks (see `GuardRuntime.settleAsk`). */
  asks: AskStats;
  /** The distinct pack versions seen: `<domain> <pack hash, first 12 hex digits>`. */
  packs: string[];
}

/**
 * Reads the whole log and sums it up: decisions, per tool, violated policies, decision time, the answers to asks and
 * pack versions.
 *
 * @example
 * ```ts
 * const stats = await auditStats(await openAuditLog('audit.db', { create: false }));
 * ```
 */
export async function auditStats(log: AuditLog): Promise<AuditStats> {
  const stats: AuditStats = {
    records: 0,
    decisions: { allow: 0, deny: 0, ask: 0 },
    tools: {},
    policies: {},
    durationUs: { p50: 0, p99: 0 },
    asks: {
      approved: { count: 0, ran: 0 },
      declined: { count: 0, ran: 0 },
      cancelled: { count: 0, ran: 0 },
      timed_out: { count: 0, ran: 0 },
      unavailable: { count: 0, ran: 0 },
    },
    packs: [],
  };
  const durations: number[] = [];
  const packs = new Set<string>();
  for await (const entry of log.entries()) {
    const record = JSON.parse(entry.body) as AuditRecord | AskOutcomeRecord;
    if (isAskOutcomeRecord(record)) {
      const answer = stats.asks[record.outcome.answer];
      answer.count++;
      if (record.outcome.ran) answer.ran++;
      continue;
    }
    stats.records++;
    stats.first ??= record.time;
    stats.last = record.time;
    const decision = record.verdict.decision;
    stats.decisions[decision]++;
    const tool = stats.tools[record.call.name] ?? { calls: 0, allow: 0, deny: 0, ask: 0 };
    stats.tools[record.call.name] = tool;
    tool.calls++;
    tool[decision]++;
    for (const violation of record.verdict.violations) {
      stats.policies[violation.policy] = (stats.policies[violation.policy] ?? 0) + 1;
    }
    durations.push(record.durationUs);
    for (const pack of record.packs) packs.add(`${pack.domain} ${pack.packSha256.slice(0, 12)}`);
  }
  durations.sort((a, b) => a - b);
  if (durations.length > 0) stats.durationUs = { p50: quantile(durations, 0.5), p99: quantile(durations, 0.99) };
  stats.packs = [...packs].sort();
  return stats;
}
