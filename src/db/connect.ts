import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { type PoolOptions, WRITE_WAIT_MS, namingStatements, openPool, releasingBroken } from './pg-pool.js';
import { type Reads, readsOver } from './reads.js';
import { counting } from './replica-pool.js';
import { ReplicaSet } from './replicas.js';
import type { Database } from './schema.js';
import { SQLITE_PRAGMAS } from './sqlite-pragmas.js';
import { withStatementCache } from './sqlite-statements.js';
import { ThreadedSqliteDialect } from './sqlite-threads-dialect.js';
import { ThreadPool } from './sqlite-threads.js';

export type Backend = 'sqlite' | 'postgres';
export { DEFAULT_POOL_SIZE, NAMED_STATEMENTS, WRITE_WAIT_MS } from './pg-pool.js';

export interface Storage {
  /** Writes, transactions and whatever is not a read of `reads` */
  db: Kysely<Database>;
  /** How reads reach the database: which connection serves which read (reads.ts) */
  reads: Reads;
  backend: Backend;
  /** where the data lives, without credentials: safe to print */
  describe: string;
  close(): Promise<void>;
  /**
   * SQLite in worker threads only: `db` for writes that may wait for the writer as long as it
   * takes (the server's import jobs, src/db/long-writes.ts); `db`'s writes give up after
   * ConnectOptions.sqliteWriteWaitMs and are answered 503 with Retry-After.
   */
  patientDb?: Kysely<Database>;
  /** SQLite only: the driver's own handle, for bulk writers that reuse prepared statements */
  sqlite?: SQLite.Database;
  /**
   * SQLite only: how many reader threads run the queries (0: every query runs on the main
   * thread, through `sqlite`). See ConnectOptions.sqliteReaders.
   */
  sqliteReaders?: number;
  /** PostgreSQL only: the connection pool's counts, for metrics */
  pool?: { total(): number; idle(): number; waiting(): number };
  /** PostgreSQL with DATABASE_REPLICA_URLS: the read replicas, their health and the reads they served */
  replicas?: ReplicaSet;
}

/** PoolOptions (pg-pool.ts) apply to PostgreSQL only. */
export interface ConnectOptions extends PoolOptions {
  /** PostgreSQL only: the read replicas (DATABASE_REPLICA_URLS, CONTRACT 16; src/db/replicas.ts) */
  replicaUrls?: readonly string[];
  /** PostgreSQL only: a replica lagging more is left out (REPLICA_MAX_LAG_MS, default 5000) */
  replicaMaxLagMs?: number;
  /**
   * SQLite only: run the queries in worker threads, this many read-only connections beside
   * one writer (src/db/sqlite-threads-dialect.ts), so that no query runs on the event loop.
   * 0 (the default, for CLI commands, which write through `sqlite` directly): every query
   * on the main thread. Ignored for `:memory:`, which another thread cannot open.
   */
  sqliteReaders?: number;
  /**
   * SQLite only: the page cache of the connection that writes, in MiB (a bulk load: with the
   * default 2 MiB the index pages of a million rows are evicted and read again every batch).
   */
  sqliteCacheMiB?: number;
  /**
   * SQLite in worker threads only: how long a write waits for the one writer thread (held by
   * another write, a long import's transaction) before it fails with WriterBusyError,
   * answered 503 with Retry-After. Default WRITE_WAIT_MS.
   */
  sqliteWriteWaitMs?: number;
}

/** How long a long-running connection (the CLI's) waits for another process's write lock on SQLite. */
export const LONG_RUNNING_BUSY_TIMEOUT_MS = 30 * 60_000;

export class StorageUrlError extends Error {}

/** Turns a storage URL (`sqlite:<path>`, `sqlite::memory:`, `postgres://…`) into a Kysely handle. */
export function connect(url: string, options: ConnectOptions = {}): Storage {
  if (url.startsWith('sqlite:')) return connectSqlite(url.slice('sqlite:'.length), options);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return connectPostgres(url, options);
  throw new StorageUrlError(
    `unsupported storage URL "${redact(url)}": use sqlite:<path>, sqlite::memory: or postgres://…`,
  );
}

function connectSqlite(path: string, options: ConnectOptions): Storage {
  const readers = options.sqliteReaders ?? 0;
  const cacheMiB = options.sqliteCacheMiB;
  if (path === '') throw new StorageUrlError('sqlite: needs a file path, e.g. sqlite:./data/storefront.db');
  if (path !== ':memory:') ensureFolder(path);
  const sqlite = new SQLite(path);
  // WAL lets readers run beside a writer (the reader threads, another process), and it
  // stays set in the file; the other settings are per connection (sqlite-pragmas.ts).
  if (path !== ':memory:') sqlite.pragma('journal_mode = WAL');
  for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
  // A CLI command waits its turn behind another process's write (an import of minutes)
  // instead of failing with "database is locked" after the server's 5 s.
  if (options.longRunning) sqlite.pragma(`busy_timeout = ${LONG_RUNNING_BUSY_TIMEOUT_MS}`);
  if (cacheMiB) sqlite.pragma(`cache_size = -${cacheMiB * 1024}`);
  const describe = `sqlite:${path}`;
  if (readers > 0 && path !== ':memory:') {
    // The threads open the file after this connection made it (and its WAL); this one stays
    // open for `sqlite`'s users and is closed last.
    const readerPool = new ThreadPool({ path, readonly: true }, readers, readers * READER_GROWTH);
    const writerPool = new ThreadPool({ path, readonly: false, cacheMiB }, 1);
    const waitMs = options.sqliteWriteWaitMs ?? WRITE_WAIT_MS;
    const db = new Kysely<Database>({ dialect: new ThreadedSqliteDialect(readerPool, writerPool, waitMs) });
    const patientDb = new Kysely<Database>({ dialect: new ThreadedSqliteDialect(readerPool, writerPool) });
    const quick = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    const close = async () => {
      await db.destroy();
      // Kysely destroys a driver only once a query initialised it: the pools are closed here
      // too, or threads spawned for a storage never queried would keep the process alive.
      await Promise.all([readerPool.close(), writerPool.close()]);
      await quick.destroy();
      if (sqlite.open) sqlite.close();
    };
    const reads = readsOver(db, db, quick);
    return { db, patientDb, reads, backend: 'sqlite', describe, close, sqlite, sqliteReaders: readers };
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, reads: readsOver(db), backend: 'sqlite', describe, close: () => db.destroy(), sqlite, sqliteReaders: 0 };
}

function connectPostgres(url: string, options: ConnectOptions): Storage {
  const pool = openPool(url, options);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: releasingBroken(pool) }) });
  const stats = { total: () => pool.totalCount, idle: () => pool.idleCount, waiting: () => pool.waitingCount };
  const replicaUrls = options.replicaUrls ?? [];
  if (replicaUrls.length === 0) {
    // The same pool; destroying `db` ends it.
    const quick = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: namingStatements(releasingBroken(pool)) }),
    });
    const reads = readsOver(db, db, quick);
    return { db, reads, backend: 'postgres', describe: redact(url), close: () => db.destroy(), pool: stats };
  }
  // Beside replicas, the primary's own reads are counted, for the share each database serves.
  const replicas = new ReplicaSet(pool, replicaUrls, { ...options, maxLagMs: options.replicaMaxLagMs }, () => reads);
  const count = () => void replicas.primaryStatements++;
  const general = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: counting(releasingBroken(pool), count) }),
  });
  const quick = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: counting(namingStatements(releasingBroken(pool)), count) }),
  });
  const reads = readsOver(db, general, quick, { source: 'primary', replicas: () => replicas.usable() });
  const close = async () => {
    await replicas.close();
    await db.destroy();
  };
  return { db, reads, backend: 'postgres', describe: redact(url), close, pool: stats, replicas };
}

/** SQLite: how many times SQLITE_READERS the readers may grow to while all are busy. */
export const READER_GROWTH = 4;

/** The URL without its password, for messages and logs. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/**
 * A database file's folder must exist: `sqlite:/typo/dir/x.db` is an error naming the path,
 * not a new empty shop in folders made on the way. Only the default database's folder
 * (./data, what `npm start` uses on a fresh checkout) is made when missing.
 */
function ensureFolder(path: string): void {
  const folder = dirname(path);
  if (existsSync(folder)) return;
  if (resolve(folder) !== resolve('data'))
    throw new StorageUrlError(`cannot open sqlite:${path}: the folder ${folder} does not exist (create it first)`);
  mkdirSync(folder, { recursive: true });
}
