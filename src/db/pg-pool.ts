import pg from 'pg';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from '../config.js';

// node-postgres pools as this service opens them (the primary's and each read replica's),
// and the layers Kysely reaches them through: broken clients dropped, statements named.

export interface PoolOptions {
  /** the schema to work in (tests give each app its own) */
  searchPath?: string;
  /** most connections this process opens */
  poolSize?: number;
  /**
   * a statement running longer is cancelled by the server (57014, answered 503); the client
   * waits 2 s more for an answer that never comes. Default 5 s (DATABASE_STATEMENT_TIMEOUT_MS).
   */
  statementTimeoutMs?: number;
  /**
   * no statement or query timeout. For CLI commands (an import of millions of records checks
   * references in statements that may run for minutes); a server keeps its limits, so that
   * no request hangs. On SQLite: waits up to 30 min for another process's write lock (connect.ts).
   */
  longRunning?: boolean;
}

/** What Kysely's PostgresDialect needs of a pool. */
export interface PoolLike {
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
}

export const DEFAULT_POOL_SIZE = 10;

// int8 (bigint) and numeric come back from node-postgres as strings; every integer we
// store fits in a double (ids, unix seconds, prices up to 10^12), so read them as numbers.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
  },
};

/**
 * How long a server's write waits for another write before it answers 503 with Retry-After:
 * for a lock on PostgreSQL (every serving connection's lock_timeout), for SQLite's writer
 * thread (ConnectOptions.sqliteWriteWaitMs, connect.ts).
 */
export const WRITE_WAIT_MS = 2000;

export function openPool(url: string, options: PoolOptions): pg.Pool {
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
    // A lock another write holds (its project's row, during a long write of the same project)
    // is waited for at most WRITE_WAIT_MS, then the request answers 503 with Retry-After; set
    // per connection, so a write pays no statement for it. Long-running connections wait their turn.
    ...(options.longRunning
      ? {}
      : { query_timeout: statementTimeout + 2000, statement_timeout: statementTimeout, lock_timeout: WRITE_WAIT_MS }),
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
  return pool;
}

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

export function releasingBroken(pool: pg.Pool): PoolLike {
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
export function namingStatements(pool: PoolLike): PoolLike {
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
function sessionOptions(options: PoolOptions): string {
  const settings = options.searchPath ? [`-c search_path=${options.searchPath}`] : [];
  if (!options.longRunning) settings.push('-c max_parallel_workers_per_gather=0');
  return settings.join(' ');
}
