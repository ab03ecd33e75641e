import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from '../config.js';
import { type Reads, readsOver } from './reads.js';
import type { Database } from './schema.js';
import { SQLITE_PRAGMAS } from './sqlite-pragmas.js';
import { withStatementCache } from './sqlite-statements.js';
import { ThreadedSqliteDialect } from './sqlite-threads-dialect.js';
import { ThreadPool } from './sqlite-threads.js';

export type Backend = 'sqlite' | 'postgres';

export interface Storage {
  /** Writes, transactions and whatever is not a read of `reads` */
  db: Kysely<Database>;
  /** How reads reach the database: which connection serves which read (reads.ts) */
  reads: Reads;
  backend: Backend;
  /** where the data lives, without credentials: safe to print */
  describe: string;
  close(): Promise<void>;
  /** SQLite only: the driver's own handle, for bulk writers that reuse prepared statements */
  sqlite?: SQLite.Database;
  /**
   * SQLite only: how many reader threads run the queries (0: every query runs on the main
   * thread, through `sqlite`). See ConnectOptions.sqliteReaders.
   */
  sqliteReaders?: number;
  /** PostgreSQL only: the connection pool's counts, for metrics */
  pool?: { total(): number; idle(): number; waiting(): number };
}

export interface ConnectOptions {
  /** PostgreSQL only: the schema to work in (tests give each app its own) */
  searchPath?: string;
  /** PostgreSQL only: most connections this process opens */
  poolSize?: number;
  /**
   * PostgreSQL only: a statement running longer is cancelled by the server (57014, answered
   * 503); the client waits 2 s more for an answer that never comes. Default 5 s
   * (DATABASE_STATEMENT_TIMEOUT_MS, src/config.ts).
   */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL only: no statement or query timeout. For CLI commands (an import of
   * millions of records checks references in statements that may run for minutes); a
   * server keeps its limits, so that no request hangs.
   */
  longRunning?: boolean;
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
}

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
  if (cacheMiB) sqlite.pragma(`cache_size = -${cacheMiB * 1024}`);
  const describe = `sqlite:${path}`;
  if (readers > 0 && path !== ':memory:') {
    // The threads open the file after this connection made it (and its WAL); this one stays
    // open for `sqlite`'s users and is closed last.
    const readerPool = new ThreadPool({ path, readonly: true }, readers, readers * READER_GROWTH);
    const writerPool = new ThreadPool({ path, readonly: false, cacheMiB }, 1);
    const db = new Kysely<Database>({ dialect: new ThreadedSqliteDialect(readerPool, writerPool) });
    const quick = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    const close = async () => {
      await db.destroy();
      // Kysely destroys a driver only once a query initialised it: the pools are closed here
      // too, or threads spawned for a storage never queried would keep the process alive.
      await Promise.all([readerPool.close(), writerPool.close()]);
      await quick.destroy();
      if (sqlite.open) sqlite.close();
    };
    return { db, reads: readsOver(db, quick), backend: 'sqlite', describe, close, sqlite, sqliteReaders: readers };
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, reads: readsOver(db), backend: 'sqlite', describe, close: () => db.destroy(), sqlite, sqliteReaders: 0 };
}

// int8 (bigint) and numeric come back from node-postgres as strings; every integer we
// store fits in a double (ids, unix seconds, prices up to 10^12), so read them as numbers.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
  },
};

function connectPostgres(url: string, options: ConnectOptions): Storage {
  const statementTimeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    types,
    // Probe idle connections after 10 s so that a server that vanished without a word
    // (a dead host, a dropped NAT entry) is noticed instead of waiting on the OS's 2 hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // A request waits at most 3 s for a connection (a new one, or a free one of a full
    // pool); a statement gets `statementTimeoutMs` on the server, and the client waits 2 s
    // more (a partition: the server's cancel never arrives). Past that the request answers
    // 503 `unavailable` instead of hanging; the server cancels first, so the connection is kept.
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    ...(options.longRunning ? {} : { query_timeout: statementTimeout + 2000, statement_timeout: statementTimeout }),
    application_name: 'storefront-api',
    options: sessionOptions(options),
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener
  // that would crash the process. The next query gets a fresh connection instead.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    // A client that loses its server while checked out emits 'error' on itself (pg-pool
    // listens only while it is idle): the query in flight already fails with that error,
    // and the pool drops the client on release because it is no longer queryable.
    client.on('error', () => {});
    watchForBrokenQueries(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: releasingBroken(pool) }) });
  // The same pool; destroying `db` ends it.
  const quick = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: namingStatements(releasingBroken(pool)) }),
  });
  const stats = { total: () => pool.totalCount, idle: () => pool.idleCount, waiting: () => pool.waitingCount };
  return {
    db,
    reads: readsOver(db, quick),
    backend: 'postgres',
    describe: redact(url),
    close: () => db.destroy(),
    pool: stats,
  };
}

export const DEFAULT_POOL_SIZE = 10;

/** SQLite: how many times SQLITE_READERS the readers may grow to while all are busy. */
export const READER_GROWTH = 4;

// A query that timed out on the client side ('Query read timeout') leaves its statement
// running on a connection that pg still counts as healthy: the next query would read the
// old answer. Such a client is marked here and destroyed, not reused, when it is released.
const broken = new WeakSet<pg.PoolClient>();

function watchForBrokenQueries(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((e: Error) => {
        if (/Query read timeout/.test(e?.message ?? '')) broken.add(client);
      });
    }
    return result;
  };
}

function releasingBroken(pool: pg.Pool) {
  return {
    async connect() {
      const client = await pool.connect();
      const release = client.release.bind(client);
      client.release = (err?: Error | boolean) => release(err ?? broken.has(client));
      return client;
    },
    end: () => pool.end(),
  };
}

/** How many statement texts `reads.point` names, at most (see namingStatements). */
export const NAMED_STATEMENTS = 200;

/**
 * PostgreSQL, `storage.reads.point`: its statements are named, so that each connection parses and
 * plans each text once (node-postgres prepares a named statement on a connection the first
 * time it runs there). These are the reads by primary key or handle that come again and
 * again: the project row of every request, the key check, a single product, order or user,
 * `ids=`; parsing and planning were half of each (a product by handle: 320 -> 165 µs a round
 * trip). Their plans are the same for every value, so PostgreSQL's generic plan, which it
 * keeps after five executions, is theirs. Only the first NAMED_STATEMENTS texts get a name:
 * `ids=` lists of every length and filter could otherwise fill each session with plans.
 */
function namingStatements(pool: ReturnType<typeof releasingBroken>) {
  /** a text's name; null: the text runs unnamed from now on */
  const names = new Map<string, string | null>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < NAMED_STATEMENTS) names.set(text, (name = `storefront_${names.size}`));
    return name ?? undefined;
  };
  // A cursor (Kysely's streams) is returned as it is, not in a promise.
  const query = (client: pg.PoolClient, text: unknown, values?: unknown[]) => {
    const name = typeof text === 'string' ? nameOf(text) : undefined;
    return name === undefined ? client.query(text as string, values) : named(client, name, text as string, values);
  };
  const named = async (client: pg.PoolClient, name: string, text: string, values?: unknown[]) => {
    try {
      return await client.query({ name, text, values });
    } catch (error) {
      // Another process migrated a table under this server: a session's plan of a `select *`
      // then fails every run ("cached plan must not change result type"), where an unnamed
      // statement just reads the new columns. Unnamed from now on, and this once.
      if ((error as { code?: unknown }).code !== '0A000') throw error;
      names.set(text, null);
      return client.query(text, values);
    }
  };
  // One stand-in per client, so that Kysely keeps one connection object per client.
  const standIns = new WeakMap<pg.PoolClient, { query: unknown; release: unknown }>();
  return {
    async connect() {
      const client = await pool.connect();
      let standIn = standIns.get(client);
      if (!standIn) {
        standIn = {
          query: (text: unknown, values?: unknown[]) => query(client, text, values),
          release: (err?: Error | boolean) => client.release(err),
        };
        standIns.set(client, standIn);
      }
      return standIn as unknown as pg.PoolClient;
    },
    end: () => pool.end(),
  };
}

/**
 * Settings of every PostgreSQL session. A serving process runs short queries side by side:
 * parallel workers (PostgreSQL's default for a large scan) start processes per query and
 * took the cores the other requests needed, so its sessions run each query in one process.
 */
function sessionOptions(options: ConnectOptions): string {
  const settings = options.searchPath ? [`-c search_path=${options.searchPath}`] : [];
  if (!options.longRunning) settings.push('-c max_parallel_workers_per_gather=0');
  return settings.join(' ');
}

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
