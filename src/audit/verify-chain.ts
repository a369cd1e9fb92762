import type { AuditLog } from './audit-log.ts';
import type { AuditRecord } from './audit-record.ts';
import { chainHash, genesisHash, type StoredEntry } from './audit-store.ts';
import { canonicalJson } from './canonical-json.ts';

/** The first record that breaks the chain, and how. */
export interface ChainBreak {
  /** The record's seq (for a deleted record, the seq that is missing). */
  seq: number;
  problem: string;
}

/** What `verifyAuditLog` found. */
export interface ChainReport {
  ok: boolean;
  /** Records read. */
  records: number;
  /** The last record's hash: keep it elsewhere to detect a rewritten or truncated tail later. */
  head: string;
  first?: string;
  last?: string;
  firstBad?: ChainBreak;
}

/** What is wrong with one record given the one before it, or undefined. */
function problemOf(entry: StoredEntry, expectedSeq: number, prevHash: string): ChainBreak | undefined {
  if (entry.seq !== expectedSeq) {
    const missing =
      expectedSeq === entry.seq - 1 ? `record ${expectedSeq} is` : `records ${expectedSeq}–${entry.seq - 1} are`;
    return { seq: expectedSeq, problem: `${missing} missing: record ${entry.seq} follows record ${expectedSeq - 1}` };
  }
  if (entry.prevHash !== prevHash) {
    return {
      seq: entry.seq,
      problem:
        expectedSeq === 1
          ? 'its previous hash is not the genesis hash'
          : `its previous hash is not the hash of record ${expectedSeq - 1} (one of the two was altered)`,
    };
  }
  if (chainHash(entry.seq, entry.prevHash, entry.body) !== entry.hash) {
    return { seq: entry.seq, problem: 'its content does not match its hash (the record was altered)' };
  }
  let record: AuditRecord;
  try {
    record = JSON.parse(entry.body) as AuditRecord;
  } catch {
    return { seq: entry.seq, problem: 'its body is not JSON' };
  }
  if (canonicalJson(record) !== entry.body) return { seq: entry.seq, problem: 'its body is not canonical JSON' };
  if (record.time !== entry.time) return { seq: entry.seq, problem: "its time column differs from the record's time" };
  return undefined;
}

/**
 * Reads the whole log and checks its chain: seqs run 1, 2, 3… without gaps; each record's previous hash is the hash
 * of the record before it (the genesis hash for the first); each hash is `chainHash` of its seq, previous hash and
 * canonical body. Reports the first record that breaks it. A removed tail leaves a valid shorter chain: compare
 * `head` with a copy kept elsewhere to detect it.
 *
 * @example
 * ```ts
 * const report = await verifyAuditLog(await openAuditLog('audit.db', { create: false }));
 * if (!report.ok) console.error(`record ${report.firstBad?.seq}: ${report.firstBad?.problem}`);
 * ```
 */
export async function verifyAuditLog(log: AuditLog): Promise<ChainReport> {
  const report: ChainReport = { ok: true, records: 0, head: genesisHash };
  let expectedSeq = 1;
  let prevHash = genesisHash;
  for await (const entry of log.entries()) {
    report.records++;
    report.first ??= entry.time;
    report.last = entry.time;
    if (report.firstBad === undefined) {
      const problem = problemOf(entry, expectedSeq, prevHash);
      if (problem !== undefined) {
        report.ok = false;
        report.firstBad = problem;
      }
    }
    expectedSeq = entry.seq + 1;
    prevHash = entry.hash;
  }
  report.head = prevHash;
  return report;
}
