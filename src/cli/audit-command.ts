import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { type AuditLog, openAuditLog } from '../audit/audit-log.ts';
import { type AskOutcomeRecord, type AuditRecord, isAskOutcomeRecord } from '../audit/audit-record.ts';
import { auditStats } from '../audit/audit-stats.ts';
import type { StoredEntry } from '../audit/audit-store.ts';
import { canonicalJson } from '../audit/canonical-json.ts';
import { verifyAuditLog } from '../audit/verify-chain.ts';
import { InputError } from '../errors.ts';

async function withLog<Result>(target: string, work: (log: AuditLog) => Promise<Result>): Promise<Result> {
  const log = await openAuditLog(target, { create: false });
  try {
    return await work(log);
  } finally {
    await log.close();
  }
}

/** One exported record: its place in the chain, its hashes and the record itself, as canonical JSON. */
function exportLine(entry: StoredEntry): string {
  return canonicalJson({
    seq: entry.seq,
    hash: entry.hash,
    prevHash: entry.prevHash,
    record: JSON.parse(entry.body),
  });
}

/** The seq of the record whose hash is `hash`, or undefined when no record of the log has it. */
async function seqOfHash(log: AuditLog, hash: string): Promise<number | undefined> {
  for await (const entry of log.entries()) if (entry.hash === hash) return entry.seq;
  return undefined;
}

/**
 * `agentguard audit verify`: exit 1 when the chain is broken or, with `--expect-head`, when no record has the head
 * kept earlier (the tail it ended was cut off or rewritten; a log that grew since still has it).
 */
export async function auditVerifyCommand(
  target: string,
  options: { json?: boolean; expectHead?: string },
): Promise<void> {
  const { expectHead } = options;
  const { report, headSeq } = await withLog(target, async (log) => ({
    report: await verifyAuditLog(log),
    headSeq: expectHead === undefined ? undefined : await seqOfHash(log, expectHead),
  }));
  const headMissing = expectHead !== undefined && headSeq === undefined;
  const result = headMissing
    ? {
        ...report,
        ok: false,
        expectedHead: {
          hash: expectHead,
          problem: 'no record has this hash: the tail it ended was cut off or rewritten',
        },
      }
    : report;
  if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (!report.ok) {
    process.stdout.write(
      `${target}: chain broken at record ${report.firstBad?.seq}: ${report.firstBad?.problem} (${report.records} records read)\n`,
    );
  } else if (headMissing) {
    process.stdout.write(
      `${target}: ${report.records} records, chain intact, but no record has the expected head ${expectHead}: the tail it ended was cut off or rewritten; head now ${report.head}\n`,
    );
  } else {
    const kept = headSeq === undefined ? '' : `; the expected head is record ${headSeq}`;
    process.stdout.write(`${target}: ${report.records} records, chain intact; head ${report.head}${kept}\n`);
  }
  if (!result.ok) process.exitCode = 1;
}

/** `agentguard audit tail`. */
export async function auditTailCommand(target: string, options: { lines: string; json?: boolean }): Promise<void> {
  const count = Number(options.lines);
  if (!/^\d+$/.test(options.lines) || !Number.isSafeInteger(count)) {
    throw new InputError('--lines', [
      { location: '--lines', message: `expected a whole number, got \`${options.lines}\`` },
    ]);
  }
  const entries = count === 0 ? [] : await withLog(target, (log) => log.last(count));
  for (const entry of entries) {
    if (options.json) {
      process.stdout.write(`${exportLine(entry)}\n`);
      continue;
    }
    const record = JSON.parse(entry.body) as AuditRecord | AskOutcomeRecord;
    if (isAskOutcomeRecord(record)) {
      process.stdout.write(
        `#${entry.seq} ${record.time} ${record.call.name} (${record.call.id}) ask ${record.outcome.answer.replace('_', ' ')}, ${record.outcome.ran ? 'ran' : 'did not run'}\n`,
      );
      continue;
    }
    const policies = record.verdict.violations.map((violation) => violation.policy).join(', ');
    process.stdout.write(
      `#${entry.seq} ${record.time} ${record.call.name} (${record.call.id}) ${record.verdict.decision}${policies === '' ? '' : `: ${policies}`}\n`,
    );
  }
}

/** `agentguard audit stats`. */
export async function auditStatsCommand(target: string, options: { json?: boolean }): Promise<void> {
  const stats = await withLog(target, auditStats);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
    return;
  }
  const lines = [
    `${stats.records} verdicts${stats.first === undefined ? '' : ` from ${stats.first} to ${stats.last}`}`,
    `decisions: ${stats.decisions.allow} allow, ${stats.decisions.deny} deny, ${stats.decisions.ask} ask`,
    `decision time: p50 ${stats.durationUs.p50} µs, p99 ${stats.durationUs.p99} µs`,
    `asks settled: ${Object.entries(stats.asks)
      .map(([answer, { count, ran }]) => `${count} ${answer.replace('_', ' ')} (${ran} ran)`)
      .join(', ')}`,
    `packs: ${stats.packs.join('; ') || 'none'}`,
    '',
    `${'tool'.padEnd(32)}${'calls'.padStart(8)}${'allow'.padStart(8)}${'deny'.padStart(8)}${'ask'.padStart(8)}`,
  ];
  const tools = Object.entries(stats.tools).sort(([, a], [, b]) => b.calls - a.calls);
  for (const [tool, counts] of tools) {
    lines.push(
      `${tool.padEnd(32)}${String(counts.calls).padStart(8)}${String(counts.allow).padStart(8)}${String(counts.deny).padStart(8)}${String(counts.ask).padStart(8)}`,
    );
  }
  const policies = Object.entries(stats.policies).sort(([, a], [, b]) => b - a);
  if (policies.length > 0) lines.push('', 'violations by policy:');
  for (const [policy, count] of policies) lines.push(`  ${policy.padEnd(40)}${String(count).padStart(6)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `agentguard audit export`: one JSON line per record, in chain order. */
export async function auditExportCommand(
  target: string,
  options: { since?: string; format: string; out?: string },
): Promise<void> {
  let since: string | undefined;
  if (options.since !== undefined) {
    const time = new Date(options.since);
    if (Number.isNaN(time.getTime())) {
      throw new InputError('--since', [
        { location: '--since', message: `expected an ISO 8601 date or time, got \`${options.since}\`` },
      ]);
    }
    since = time.toISOString();
  }
  const output = options.out === undefined ? process.stdout : createWriteStream(options.out);
  await withLog(target, async (log) => {
    for await (const entry of log.entries(since === undefined ? {} : { since })) {
      if (!output.write(`${exportLine(entry)}\n`)) await once(output, 'drain');
    }
  });
  if (output !== process.stdout) {
    output.end();
    await once(output, 'finish');
  }
}
