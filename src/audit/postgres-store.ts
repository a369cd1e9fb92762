import pg from 'pg';
import { AgentGuardError } from '../errors.ts';
import { type AuditStore, chainHash, genesisHash, type PendingEntry, type StoredEntry } from './audit-store.ts';

const schema = `
CREATE TABLE IF NOT EXISTS agentguard_audit (
  seq BIGINT PRIMARY KEY,
  time TEXT NOT NULL,
  body TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS agentguard_audit_time ON agentguard_audit (time);`;

interface Row {
  seq: string;
  time: string;
  body: string;
  prev_hash: string;
  hash: string;
}

const entryOf = (row: Row): StoredEntry => ({
  seq: Number(row.seq),
  time: row.time,
  body: row.body,
  prevHash: row.prev_hash,
  hash: row.hash,
});

/** How long a commit waits for the table's lock, and a new connection for the server, in milliseconds. */
const lockTimeoutMs = 2000;
const connectTimeoutMs = 5000;

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

/**
 * An audit log in a PostgreSQL table, `agentguard_audit`, shared by any number of instances. Each commit is one
 * transaction that takes `LOCK TABLE … IN EXCLUSIVE MODE` (readers go on) and reads the chain's tail inside it; it
 * returns once PostgreSQL has committed, which with the default `synchronous_commit = on` means flushed to its WAL.
 * A commit waits at most 2 s for a lock another session holds and 5 s for a connection, then fails (and `AuditLog`
 * retries it).
 */
export class PostgresAuditStore implements AuditStore {
  readonly location: string;
  private readonly pool: pg.Pool;

  private constructor(url: string, pool: pg.Pool) {
    this.location = redact(url);
    this.pool = pool;
  }

  /** Connects to `url` and, unless `create` is false, creates the table. */
  static async open(url: string, options: { create?: boolean } = {}): Promise<PostgresAuditStore> {
    const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: connectTimeoutMs });
    const store = new PostgresAuditStore(url, pool);
    // An idle client that loses its connection must not take the process down; the next query reports the problem.
    pool.on('error', () => {});
    try {
      if (options.create === false) {
        const found = await pool.query("SELECT to_regclass('agentguard_audit') IS NOT NULL AS present");
        if (found.rows[0]?.present !== true) throw new Error('the database holds no audit log');
      } else {
        await store.transaction(async (client) => {
          await client.query("SELECT pg_advisory_xact_lock(hashtext('agentguard_audit'))");
          await client.query(schema);
        });
      }
    } catch (error) {
      await pool.end();
      throw new AgentGuardError(
        'invalid_input',
        `cannot open the audit log \`${store.location}\`: ${(error as Error).message}`,
        { cause: error },
      );
    }
    return store;
  }

  private async transaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query('COMMIT');
      client.release();
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.release(error as Error);
      throw error;
    }
  }

  async commit(entries: readonly PendingEntry[]): Promise<void> {
    await this.transaction(async (client) => {
      // A lock another session holds fails the commit after a while instead of holding it forever: `AuditLog`
      // retries it, and its health says why meanwhile.
      await client.query(`SET LOCAL lock_timeout = ${lockTimeoutMs}`);
      await client.query('LOCK TABLE agentguard_audit IN EXCLUSIVE MODE');
      const tail = await client.query<{ seq: string; hash: string }>(
        'SELECT seq, hash FROM agentguard_audit ORDER BY seq DESC LIMIT 1',
      );
      let seq = Number(tail.rows[0]?.seq ?? 0);
      let prevHash = tail.rows[0]?.hash ?? genesisHash;
      const values: unknown[] = [];
      const rows: string[] = [];
      for (const entry of entries) {
        seq++;
        const hash = chainHash(seq, prevHash, entry.body);
        const at = values.length;
        rows.push(`($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5})`);
        values.push(seq, entry.time, entry.body, prevHash, hash);
        prevHash = hash;
      }
      await client.query(
        `INSERT INTO agentguard_audit (seq, time, body, prev_hash, hash) VALUES ${rows.join(', ')}`,
        values,
      );
    });
  }

  async page(after: number, limit: number, since?: string): Promise<StoredEntry[]> {
    const result =
      since === undefined
        ? await this.pool.query<Row>('SELECT * FROM agentguard_audit WHERE seq > $1 ORDER BY seq LIMIT $2', [
            after,
            limit,
          ])
        : await this.pool.query<Row>(
            'SELECT * FROM agentguard_audit WHERE seq > $1 AND time >= $2 ORDER BY seq LIMIT $3',
            [after, since, limit],
          );
    return result.rows.map(entryOf);
  }

  async last(count: number): Promise<StoredEntry[]> {
    const result = await this.pool.query<Row>('SELECT * FROM agentguard_audit ORDER BY seq DESC LIMIT $1', [count]);
    return result.rows.reverse().map(entryOf);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
