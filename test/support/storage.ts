import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin } from 'kysely';
import pg from 'pg';
import { type Backend, type Storage, connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { readsOver } from '../../src/db/reads.js';

// Every suite runs once per backend: SQLite always, PostgreSQL when TEST_DATABASE_URL is
// set (TEST_BACKENDS=sqlite or =postgres narrows the list). Each storage is fresh: an
// in-memory SQLite database, or a PostgreSQL schema of its own that is dropped on close.
// TEST_SQLITE_READERS=<n> (n ≥ 1) puts each SQLite storage in a file of its own instead,
// served by n reader threads and a writer thread, as `storefront serve` runs a file
// (src/db/sqlite-threads-dialect.ts): the whole suite then proves that path too.

export const PG_URL = process.env.TEST_DATABASE_URL;

export function backends(): Backend[] {
  const wanted = (process.env.TEST_BACKENDS ?? 'sqlite,postgres').split(',');
  return (['sqlite', 'postgres'] as const).filter((b) => wanted.includes(b));
}

export const PG_SKIP = PG_URL ? false : 'PostgreSQL tests skipped: TEST_DATABASE_URL is not set';

export async function openStorage(backend: Backend): Promise<Storage> {
  if (backend === 'sqlite') {
    if (SQLITE_READERS > 0) return threadedSqlite(SQLITE_READERS);
    const storage = connect('sqlite::memory:');
    await migrateToLatest(storage.db);
    return storage;
  }
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminStatement(`create schema ${schema}`);
  const storage = connect(PG_URL, { searchPath: schema, poolSize: 4 });
  await migrateToLatest(storage.db);
  return {
    ...storage,
    async close() {
      await storage.close();
      await adminStatement(`drop schema if exists ${schema} cascade`);
    },
  };
}

/**
 * One statement on a connection of its own, always closed (an open one keeps the test file's
 * process alive, and the runner waits for it), bounded in time, and tried again when another
 * test file's DDL running beside it gets in its way.
 */
export async function adminStatement(text: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({ connectionString: PG_URL, query_timeout: 60_000, connectionTimeoutMillis: 30_000 });
    try {
      await client.connect();
      await client.query(text);
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    } finally {
      await client.end().catch(() => {});
    }
  }
}

const SQLITE_READERS = Number(process.env.TEST_SQLITE_READERS || 0);

/** A fresh SQLite file served by worker threads, deleted on close. */
export async function threadedSqlite(readers: number): Promise<Storage> {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-threads-'));
  const storage = connect(`sqlite:${join(dir, 'test.db')}`, { sqliteReaders: readers });
  await migrateToLatest(storage.db);
  return {
    ...storage,
    async close() {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The same storage with `plugin` on each of its connections (to count or fail queries). */
export function withPlugin(storage: Storage, plugin: KyselyPlugin): Storage {
  const db = storage.db.withPlugin(plugin);
  return { ...storage, db, reads: readsOver(db, db, storage.reads.point.withPlugin(plugin)) };
}
