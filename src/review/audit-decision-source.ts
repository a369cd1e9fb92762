import { openAuditLog } from '../audit/audit-log.ts';
import { type AskOutcomeRecord, type AuditRecord, isAskOutcomeRecord } from '../audit/audit-record.ts';
import type { DecisionRecord, DecisionSource } from './decision-source.ts';

/** The log's address for the page: a file as given, a PostgreSQL URL without its password. */
function labelOf(target: string): string {
  if (!/^postgres(ql)?:\/\//.test(target)) return target;
  const url = new URL(target);
  url.password = '';
  return url.toString();
}

/**
 * The decisions of a live audit log (a SQLite file or a `postgres://` URL, as `openAuditLog` takes): every verdict in
 * chain order (the outcomes of asks left out), read anew on each call, so the page shows what the runtime decided up to that moment.
 *
 * @example
 * ```ts
 * const records = await auditDecisionSource('audit.db').read();
 * ```
 */
export function auditDecisionSource(target: string): DecisionSource {
  return {
    label: labelOf(target),
    async read() {
      const log = await openAuditLog(target, { create: false });
      try {
        const records: DecisionRecord[] = [];
        for await (const entry of log.entries()) {
          const record = JSON.parse(entry.body) as AuditRecord | AskOutcomeRecord;
          if (isAskOutcomeRecord(record)) continue;
          const { time, call, verdict } = record;
          records.push({
            time,
            origin: `record ${entry.seq}, call ${call.id}`,
            call: { name: call.name, arguments: call.arguments },
            decision: verdict.decision,
            violations: verdict.violations.map(({ policy, message }) => ({ policy, message })),
          });
        }
        return records;
      } finally {
        await log.close();
      }
    },
  };
}
