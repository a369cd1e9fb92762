import { openAuditLog } from '../audit/audit-log.ts';
import { type AskOutcomeRecord, type AuditRecord, isAskOutcomeRecord } from '../audit/audit-record.ts';
import { sha256Hex } from '../audit/canonical-json.ts';
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
 * chain order, read anew on each call, so the page shows what the runtime decided up to that moment. Each carries the
 * policy's clock and what the log keeps of the conversation (its size and digest); an asked call carries the
 * outcome recorded for it (`settleAsk`), matched by the digest of the ask's record.
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
        /** The asked calls' records, by the digest of the record's body that an outcome links to. */
        const asks = new Map<string, DecisionRecord>();
        for await (const entry of log.entries()) {
          const record = JSON.parse(entry.body) as AuditRecord | AskOutcomeRecord;
          if (isAskOutcomeRecord(record)) {
            const asked = record.ask === null ? undefined : asks.get(record.ask.sha256);
            if (asked !== undefined) asked.askOutcome = record.outcome;
            continue;
          }
          const { time, now, call, conversation, verdict } = record;
          const decided: DecisionRecord = {
            time,
            origin: `record ${entry.seq}, call ${call.id}`,
            call: { name: call.name, arguments: call.arguments },
            decision: verdict.decision,
            violations: verdict.violations.map(({ policy, message }) => ({ policy, message })),
            now,
            conversationDigest: conversation,
          };
          if (verdict.decision === 'ask') asks.set(sha256Hex(entry.body), decided);
          records.push(decided);
        }
        return records;
      } finally {
        await log.close();
      }
    },
  };
}
