import { sha256Hex } from './canonical-json.ts';

/** The hash the first record of a log is chained to. */
export const genesisHash = '0'.repeat(64);

/** A record as stored: its place in the chain, its canonical JSON body and the hashes that chain it. */
export interface StoredEntry {
  /** 1 for the first record, then one more for each. */
  seq: number;
  /** The record's `time`, kept beside the body for queries. */
  time: string;
  /** The record's canonical JSON. */
  body: string;
  /** The hash of the record before it (`genesisHash` for the first). */
  prevHash: string;
  hash: string;
}

/** A record ready to be chained: its time and its canonical JSON. */
export interface PendingEntry {
  time: string;
  body: string;
}

/**
 * The hash that chains a record: SHA-256 of `<seq>\n<prevHash>\n<body>`.
 *
 * @example
 * ```ts
 * const first = chainHash(1, genesisHash, body);
 * ```
 */
export function chainHash(seq: number, prevHash: string, body: string): string {
  return sha256Hex(`${seq}\n${prevHash}\n${body}`);
}

/**
 * Where an audit log's records live (SQLite or PostgreSQL). `commit` appends records in one write transaction that
 * reads the chain's tail inside it, so writers in several processes keep one valid chain, and returns once the
 * transaction is durable.
 */
export interface AuditStore {
  /** Where the store is, without secrets, for messages. */
  readonly location: string;
  commit(entries: readonly PendingEntry[]): Promise<void>;
  /** Up to `limit` records after `after` (by seq, ascending), from `since` (a `time`) on when given. */
  page(after: number, limit: number, since?: string): Promise<StoredEntry[]>;
  /** The last `count` records, ascending. */
  last(count: number): Promise<StoredEntry[]>;
  close(): Promise<void>;
}
