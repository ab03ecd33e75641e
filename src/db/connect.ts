import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Backend = 'sqlite' | 'postgres';

export interface Storage {
  db: Kysely<Database>;
  backend: Backend;
  /** where the data lives, without credentials: safe to print */
  describe: string;
  close(): Promise<void>;
  /** PostgreSQL only: the connection pool's counts, for metrics */
  pool?: { total(): number; idle(): number; waiting(): number };
}

export interface ConnectOptions {
  /** PostgreSQL only: the schema to work in (tests give each app its own) */
  searchPath?: string;
  /** PostgreSQL only: most connections this process opens */
  poolSize?: number;
}

export class StorageUrlError extends Error {}

/** Turns a storage URL (`sqlite:<path>`, `sqlite::memory:`, `postgres://…`) into a Kysely handle. */
export function connect(url: string, options: ConnectOptions = {}): Storage {
  if (url.startsWith('sqlite:')) return connectSqlite(url.slice('sqlite:'.length));
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return connectPostgres(url, options);
  throw new StorageUrlError(`unsupported storage URL "${redact(url)}": use sqlite:<path>, sqlite::memory: or postgres://…`);
}

function connectSqlite(path: string): Storage {
  if (path === '') throw new StorageUrlError('sqlite: needs a file path, e.g. sqlite:./data/storefront.db');
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  // WAL lets readers run beside a writer; synchronous=FULL makes every acknowledged
  // commit durable even across a power cut; busy_timeout lets a CLI import and a
  // running server share the file without "database is locked" errors.
  if (path !== ':memory:') sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = OFF');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, backend: 'sqlite', describe: `sqlite:${path}`, close: () => db.destroy() };
}

// int8 (bigint) and numeric come back from node-postgres as strings; every integer we
// store fits in a double (ids, unix seconds, prices up to 10^12), so read them as numbers.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

function connectPostgres(url: string, options: ConnectOptions): Storage {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types,
    keepAlive: true,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    query_timeout: 10_000,
    statement_timeout: 10_000,
    application_name: 'storefront-api',
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener
  // that would crash the process. The next query gets a fresh connection instead.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const stats = { total: () => pool.totalCount, idle: () => pool.idleCount, waiting: () => pool.waitingCount };
  return { db, backend: 'postgres', describe: redact(url), close: () => db.destroy(), pool: stats };
}

/** The URL without its password, for messages and logs. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
