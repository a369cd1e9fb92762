import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentGuardError } from '../errors.ts';
import { type AuditStore, chainHash, genesisHash, type PendingEntry, type StoredEntry } from './audit-store.ts';

const schema = `
CREATE TABLE IF NOT EXISTS agentguard_audit (
  seq INTEGER PRIMARY KEY,
  time TEXT NOT NULL,
  body TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS agentguard_audit_time ON agentguard_audit (time);`;

interface Row {
  seq: number;
  time: string;
  body: string;
  prev_hash: string;
  hash: string;
}

const entryOf = (row: Row): StoredEntry => ({
  seq: row.seq,
  time: row.time,
  body: row.body,
  prevHash: row.prev_hash,
  hash: row.hash,
});

/** Whether SQLite refused for a lock another connection holds (`SQLITE_BUSY`, `SQLITE_LOCKED`). */
const isBusy = (error: unknown): boolean =>
  [5, 6].includes((error as { errcode?: number }).errcode ?? 0) || (error instanceof Error && isBusy(error.cause));

/**
 * An audit log in one SQLite file (`node:sqlite`), in WAL mode with `synchronous=FULL`: a commit returns once the
 * write-ahead log is synced to disk. Each commit is a `BEGIN IMMEDIATE` transaction that reads the chain's tail inside
 * it, so several processes may append to one file. SQLite calls are synchronous, so a commit never waits for a lock
 * another connection holds: it fails at once ("database is locked") and `AuditLog` retries it later, leaving the
 * event loop free; a commit holds the event loop only while it writes and syncs its batch.
 */
export class SqliteAuditStore implements AuditStore {
  readonly location: string;
  private readonly database: DatabaseSync;

  private constructor(file: string, database: DatabaseSync) {
    this.location = file;
    this.database = database;
  }

  /**
   * Opens (and unless `create` is false, creates) the log at `file`, waiting up to `busyTimeoutMs` (default 10 000)
   * for a lock another connection holds.
   */
  static async open(
    file: string,
    options: { create?: boolean; busyTimeoutMs?: number } = {},
  ): Promise<SqliteAuditStore> {
    const deadline = performance.now() + (options.busyTimeoutMs ?? 10_000);
    for (let wait = 10; ; wait = Math.min(wait * 2, 500)) {
      try {
        return SqliteAuditStore.openNow(file, options.create ?? true);
      } catch (error) {
        if (!isBusy(error) || performance.now() + wait > deadline) throw error;
      }
      await sleep(wait);
    }
  }

  private static openNow(file: string, create: boolean): SqliteAuditStore {
    if (!create && !existsSync(file)) {
      throw new AgentGuardError('invalid_input', `no audit log at \`${file}\``);
    }
    let database: DatabaseSync | undefined;
    try {
      database = new DatabaseSync(file);
      database.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
    } catch (error) {
      database?.close();
      throw new AgentGuardError('invalid_input', `cannot open the audit log \`${file}\`: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const store = new SqliteAuditStore(file, database);
    const opened = database;
    try {
      if (create) store.transaction(() => opened.exec(schema));
      else if (
        opened.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'agentguard_audit'").get() ===
        undefined
      ) {
        throw new AgentGuardError('invalid_input', `\`${file}\` holds no audit log`);
      }
    } catch (error) {
      opened.close();
      if (AgentGuardError.isInstance(error)) throw error;
      throw new AgentGuardError('invalid_input', `cannot open the audit log \`${file}\`: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return store;
  }

  private transaction(work: () => void): void {
    this.database.exec('BEGIN IMMEDIATE');
    try {
      work();
      this.database.exec('COMMIT');
    } catch (error) {
      if (this.database.isTransaction) this.database.exec('ROLLBACK');
      throw error;
    }
  }

  async commit(entries: readonly PendingEntry[]): Promise<void> {
    this.transaction(() => {
      const tail = this.database.prepare('SELECT seq, hash FROM agentguard_audit ORDER BY seq DESC LIMIT 1').get() as
        | { seq: number; hash: string }
        | undefined;
      let seq = tail?.seq ?? 0;
      let prevHash = tail?.hash ?? genesisHash;
      const insert = this.database.prepare(
        'INSERT INTO agentguard_audit (seq, time, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?)',
      );
      for (const entry of entries) {
        seq++;
        const hash = chainHash(seq, prevHash, entry.body);
        insert.run(seq, entry.time, entry.body, prevHash, hash);
        prevHash = hash;
      }
    });
  }

  async page(after: number, limit: number, since?: string): Promise<StoredEntry[]> {
    const rows =
      since === undefined
        ? this.database.prepare('SELECT * FROM agentguard_audit WHERE seq > ? ORDER BY seq LIMIT ?').all(after, limit)
        : this.database
            .prepare('SELECT * FROM agentguard_audit WHERE seq > ? AND time >= ? ORDER BY seq LIMIT ?')
            .all(after, since, limit);
    return (rows as unknown as Row[]).map(entryOf);
  }

  async last(count: number): Promise<StoredEntry[]> {
    const rows = this.database
      .prepare('SELECT * FROM agentguard_audit ORDER BY seq DESC LIMIT ?')
      .all(count) as unknown as Row[];
    return rows.reverse().map(entryOf);
  }

  async close(): Promise<void> {
    if (this.database.isOpen) this.database.close();
  }
}
