import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
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

/**
 * An audit log in one SQLite file (`node:sqlite`), in WAL mode with `synchronous=FULL`: a commit returns once the
 * write-ahead log is synced to disk. Each commit is a `BEGIN IMMEDIATE` transaction that reads the chain's tail inside
 * it, so several processes may append to one file; a writer waits up to `busyTimeoutMs` for another's transaction.
 * SQLite calls are synchronous: a commit holds the event loop for its duration, batched by `AuditLog`.
 */
export class SqliteAuditStore implements AuditStore {
  readonly location: string;
  private readonly database: DatabaseSync;

  private constructor(file: string, database: DatabaseSync) {
    this.location = file;
    this.database = database;
  }

  /** Opens (and unless `create` is false, creates) the log at `file`. */
  static open(file: string, options: { create?: boolean; busyTimeoutMs?: number } = {}): SqliteAuditStore {
    if (options.create === false && !existsSync(file)) {
      throw new AgentGuardError('invalid_input', `no audit log at \`${file}\``);
    }
    let database: DatabaseSync;
    try {
      database = new DatabaseSync(file, { timeout: options.busyTimeoutMs ?? 10_000 });
      database.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
    } catch (error) {
      throw new AgentGuardError('invalid_input', `cannot open the audit log \`${file}\`: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const store = new SqliteAuditStore(file, database);
    if (options.create === false) {
      const table = database
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'agentguard_audit'")
        .get();
      if (table === undefined) {
        database.close();
        throw new AgentGuardError('invalid_input', `\`${file}\` holds no audit log`);
      }
    } else {
      store.transaction(() => database.exec(schema));
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
