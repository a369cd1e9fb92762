import { type AskOutcomeRecord, type AuditRecord, type AuditSink, auditBody } from './audit-record.ts';
import type { AuditStore, PendingEntry, StoredEntry } from './audit-store.ts';

/** Records written in one transaction at most. */
const batchLimit = 500;
/** Records read per query. */
const pageSize = 1000;

interface Waiter {
  /** Failures after this many settled records reject the waiter. */
  from: number;
  /** The waiter resolves once this many records are settled. */
  until: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * An append-only, hash-chained log of verdicts over a SQLite file or a PostgreSQL table (see `openAuditLog`).
 *
 * Writing: `append` queues a record and returns at once; queued records are committed in batches (one transaction
 * each, group commit), never delaying or changing a verdict. `flush()` resolves once every record appended before it
 * is durable, and rejects when one of them could not be written: a surface that promises "nothing answered is lost"
 * (the HTTP service) answers only after it. Failures are also reported to `onError` (default: standard error).
 *
 * @example
 * ```ts
 * const log = await openAuditLog('audit.db');
 * const runtime = new GuardRuntime(packs, { audit: log });
 * await runtime.check(call, context);
 * await log.flush(); // the verdict's record is on disk
 * await log.close();
 * ```
 */
export class AuditLog implements AuditSink {
  private readonly store: AuditStore;
  private readonly onError: (error: Error) => void;
  /** Records to write, in order; an `Error` stands for a record that could not be serialised. */
  private queue: (PendingEntry | Error)[] = [];
  private appended = 0;
  private settled = 0;
  /** Settled positions (exclusive end) of failed batches: [start, end). */
  private failures: { start: number; end: number; error: Error }[] = [];
  private waiters: Waiter[] = [];
  private draining = false;
  private closed = false;

  constructor(store: AuditStore, options: { onError?: (error: Error) => void } = {}) {
    this.store = store;
    this.onError = options.onError ?? ((error) => process.stderr.write(`agentguard audit: ${error.message}\n`));
  }

  /** Where the log is (a file path, or the database URL without its password). */
  get location(): string {
    return this.store.location;
  }

  /** Queues one record; it is committed in the background. */
  append(record: AuditRecord | AskOutcomeRecord): void {
    if (this.closed) {
      this.onError(
        new Error(`the audit log \`${this.location}\` is closed; a record of \`${record.call.name}\` was not recorded`),
      );
      return;
    }
    let entry: PendingEntry | Error;
    try {
      entry = { time: record.time, body: auditBody(record) };
    } catch (error) {
      entry = new Error(`a record of \`${record.call.name}\` cannot be serialised: ${(error as Error).message}`);
    }
    this.queue.push(entry);
    this.appended++;
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, batchLimit);
      const start = this.settled;
      const entries = batch.filter((entry): entry is PendingEntry => !(entry instanceof Error));
      try {
        if (entries.length > 0) await this.store.commit(entries);
        batch.forEach((entry, index) => {
          if (entry instanceof Error) this.fail(start + index, start + index + 1, entry);
        });
      } catch (error) {
        const message = `cannot append ${entries.length} record(s) to \`${this.location}\`: ${(error as Error).message}`;
        this.fail(start, start + batch.length, new Error(message, { cause: error }));
      }
      this.settled += batch.length;
      this.wake();
    }
    this.draining = false;
  }

  private fail(start: number, end: number, error: Error): void {
    this.failures.push({ start, end, error });
    this.onError(error);
  }

  private wake(): void {
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.until > this.settled) return true;
      const failure = this.failures.find((candidate) => candidate.end > waiter.from && candidate.start < waiter.until);
      if (failure === undefined) waiter.resolve();
      else waiter.reject(failure.error);
      return false;
    });
    const oldest = this.waiters.reduce((least, waiter) => Math.min(least, waiter.from), this.settled);
    this.failures = this.failures.filter((failure) => failure.end > oldest);
  }

  /** Resolves once every record appended so far is durable; rejects when one of them could not be written. */
  flush(): Promise<void> {
    if (this.settled >= this.appended) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ from: this.settled, until: this.appended, resolve, reject });
    });
  }

  /** Writes what is queued, then closes the store; rejects when queued records could not be written. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      await this.store.close();
    }
  }

  /** Every record in chain order, from `since` (an ISO 8601 time) on when given. */
  async *entries(options: { since?: string } = {}): AsyncGenerator<StoredEntry> {
    let after = 0;
    for (;;) {
      const page = await this.store.page(after, pageSize, options.since);
      yield* page;
      const lastEntry = page.at(-1);
      if (lastEntry === undefined || page.length < pageSize) return;
      after = lastEntry.seq;
    }
  }

  /** The last `count` records, oldest first. */
  last(count: number): Promise<StoredEntry[]> {
    return this.store.last(count);
  }
}

/** Whether a target names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//.test(target);
}

/**
 * Opens an audit log: a SQLite file (created when missing, unless `create` is false) or, for a `postgres://` or
 * `postgresql://` URL, a table in that database, shared by a fleet. Throws an `AgentGuardError` naming the target
 * when it cannot be opened.
 *
 * @example
 * ```ts
 * const local = await openAuditLog('audit.db');
 * const fleet = await openAuditLog('postgres://audit@db.internal/agentguard');
 * ```
 */
export async function openAuditLog(
  target: string,
  options: { create?: boolean; onError?: (error: Error) => void } = {},
): Promise<AuditLog> {
  const create = options.create ?? true;
  const store = isPostgresUrl(target)
    ? await (await import('./postgres-store.ts')).PostgresAuditStore.open(target, { create })
    : (await import('./sqlite-store.ts')).SqliteAuditStore.open(target, { create });
  return new AuditLog(store, options.onError === undefined ? {} : { onError: options.onError });
}
