import { importOptional } from '../optional-package.ts';
import { type AskOutcomeRecord, type AuditRecord, type AuditSink, auditBody } from './audit-record.ts';
import type { AuditStore, PendingEntry, StoredEntry } from './audit-store.ts';

/** Records written in one transaction at most. */
const batchLimit = 500;
/** Records read per query. */
const pageSize = 1000;
/** Records kept waiting at most while the store cannot be written; later ones are dropped and reported. */
const queueLimit = 100_000;
/** Wait before the first retry of a failed write, and the longest wait between retries, in milliseconds. */
const retryMs = { first: 2, most: 250 };

interface Waiter {
  /** Failures after this many settled records reject the waiter. */
  from: number;
  /** The waiter resolves once this many records are settled. */
  until: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** A record waiting to be written; an `Error` stands for one that cannot be (unserialisable, or dropped). */
interface Queued {
  entry: PendingEntry | Error;
  /** `performance.now()` when it was appended. */
  at: number;
}

/** Whether an audit log is being written (see `AuditLog.health`). */
export type AuditHealth = { ok: true } | { ok: false; reason: string };

/** How an audit log writes. */
export interface AuditLogOptions {
  /** Where write failures are reported. Default: standard error. */
  onError?: (error: Error) => void;
  /** How long a record may wait to be written before the log reports itself failing, in milliseconds. Default 1000. */
  stallMs?: number;
  /** How long `close` waits for queued records before giving them up, in milliseconds. Default 10 000. */
  closeTimeoutMs?: number;
}

/**
 * An append-only, hash-chained log of verdicts over a SQLite file or a PostgreSQL table (see `openAuditLog`).
 *
 * Writing: `append` queues a record and returns at once; queued records are committed in batches (one transaction
 * each, group commit), never delaying or changing a verdict. A batch that cannot be written (a lock held by another
 * process, a database that is down) stays queued and is retried (every 250 ms at most) until it is written or the
 * log is closed; meanwhile `health()` says why. `flush()` resolves once every record appended before it is durable,
 * and rejects when one of them cannot be written or, given `timeoutMs`, is not written in time: a surface that
 * promises "nothing answered is lost" (the HTTP service) answers only after it. Failures are also reported to
 * `onError` (default: standard error), once per outage.
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
  private readonly stallMs: number;
  private readonly closeTimeoutMs: number;
  /** Records to write, in order. */
  private queue: Queued[] = [];
  private appended = 0;
  private settled = 0;
  /** Settled positions (exclusive end) of failed records: [start, end). */
  private failures: { start: number; end: number; error: Error }[] = [];
  private waiters: Waiter[] = [];
  private draining = false;
  private closed = false;
  /** Why the last write failed, while no write has succeeded since. */
  private outage: Error | undefined;
  /** The last failure reported during the current outage. */
  private reported: string | undefined;
  /** The error that stands for records dropped during the current outage. */
  private dropped: Error | undefined;
  /** The pending retry of a failed write. */
  private retry: { timer: NodeJS.Timeout; run: () => void } | undefined;

  constructor(store: AuditStore, options: AuditLogOptions = {}) {
    this.store = store;
    this.onError = options.onError ?? ((error) => process.stderr.write(`agentguard audit: ${error.message}\n`));
    this.stallMs = options.stallMs ?? 1000;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
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
    if (this.queue.length >= queueLimit) {
      this.dropped ??= new Error(
        `the audit log \`${this.location}\` holds ${queueLimit} records it cannot write (${this.outage?.message ?? 'writes are slow'}): later records are dropped`,
      );
      if (this.queue.at(-1)?.entry !== this.dropped) this.onError(this.dropped);
      entry = this.dropped;
    } else {
      try {
        entry = { time: record.time, body: auditBody(record) };
      } catch (error) {
        entry = new Error(`a record of \`${record.call.name}\` cannot be serialised: ${(error as Error).message}`);
        this.onError(entry);
      }
    }
    this.queue.push({ entry, at: performance.now() });
    this.appended++;
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    let wait = retryMs.first;
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, batchLimit);
      const entries = batch.flatMap(({ entry }) => (entry instanceof Error ? [] : [entry]));
      try {
        if (entries.length > 0) await this.store.commit(entries);
      } catch (error) {
        this.fail(error as Error);
        if (!this.closed) await this.pause(wait);
        if (this.closed) break;
        wait = Math.min(wait * 2, retryMs.most);
        continue;
      }
      if (entries.length > 0) {
        wait = retryMs.first;
        this.outage = undefined;
        this.reported = undefined;
        this.dropped = undefined;
      }
      this.queue.splice(0, batch.length);
      batch.forEach(({ entry }, index) => {
        if (entry instanceof Error)
          this.failures.push({ start: this.settled + index, end: this.settled + index + 1, error: entry });
      });
      this.settled += batch.length;
      this.wake();
    }
    this.draining = false;
  }

  /**
   * Notes a failed write. It is reported once records have waited `stallMs` (a lock another writer holds for a moment
   * is no failure), then again only when the reason changes.
   */
  private fail(error: Error): void {
    const message = `cannot append to \`${this.location}\` (records wait and are retried): ${error.message}`;
    this.outage = new Error(message, { cause: error });
    const oldest = this.queue[0];
    if (oldest === undefined || performance.now() - oldest.at < this.stallMs || this.reported === message) return;
    this.reported = message;
    this.onError(this.outage);
  }

  /** Waits before a retry; `close` cuts the wait short. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const run = () => {
        clearTimeout(timer);
        this.retry = undefined;
        resolve();
      };
      const timer = setTimeout(run, ms);
      // A retry keeps the process alive only while someone waits for it (`flush`).
      if (this.waiters.length === 0) timer.unref();
      this.retry = { timer, run };
    });
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

  /**
   * Whether records are being written: failing, with the reason, once a record has waited longer than `stallMs`
   * (a write that fails, or one that has not finished). Costs no I/O.
   *
   * @example
   * ```ts
   * const health = log.health();
   * if (!health.ok) console.error(health.reason);
   * ```
   */
  health(): AuditHealth {
    const oldest = this.queue[0];
    if (oldest === undefined) return { ok: true };
    const waited = Math.round(performance.now() - oldest.at);
    if (waited < this.stallMs) return { ok: true };
    const why = this.outage?.message ?? `a write to \`${this.location}\` has not finished`;
    return { ok: false, reason: `${this.queue.length} record(s) waiting for ${waited} ms: ${why}` };
  }

  /**
   * Resolves once every record appended so far is durable; rejects when one of them cannot be written or, given
   * `timeoutMs`, is not written within it (it stays queued and may be written later).
   */
  flush(options: { timeoutMs?: number } = {}): Promise<void> {
    if (this.settled >= this.appended) return Promise.resolve();
    this.retry?.timer.ref();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { from: this.settled, until: this.appended, resolve, reject };
      this.waiters.push(waiter);
      if (options.timeoutMs === undefined) return;
      const timeoutMs = options.timeoutMs;
      const timer = setTimeout(() => {
        if (!this.waiters.includes(waiter)) return;
        this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
        const why = this.outage?.message ?? `a write to \`${this.location}\` has not finished`;
        reject(new Error(`not written within ${timeoutMs} ms: ${why}`));
      }, timeoutMs);
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      waiter.reject = (error) => {
        clearTimeout(timer);
        reject(error);
      };
    });
  }

  /**
   * Writes what is queued, waiting up to `closeTimeoutMs`, then closes the store; rejects when queued records could
   * not be written (they are reported and given up).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush({ timeoutMs: this.closeTimeoutMs });
    } catch (error) {
      const lost = this.queue.length;
      if (lost > 0) this.onError(new Error(`${lost} record(s) given up at close: ${(error as Error).message}`));
      throw error;
    } finally {
      this.closed = true;
      this.retry?.run();
      const closed = new Error(`the audit log \`${this.location}\` was closed before the record(s) were written`);
      for (const waiter of this.waiters) waiter.reject(closed);
      this.waiters = [];
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
  options: AuditLogOptions & { create?: boolean } = {},
): Promise<AuditLog> {
  const { create = true, ...logOptions } = options;
  const store = isPostgresUrl(target)
    ? await (
        await importOptional('an audit log in PostgreSQL', () => import('./postgres-store.ts'))
      ).PostgresAuditStore.open(target, { create })
    : await (await import('./sqlite-store.ts')).SqliteAuditStore.open(target, { create });
  return new AuditLog(store, logOptions);
}
