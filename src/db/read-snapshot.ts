import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { isThreadedSqlite } from './sqlite-threads-dialect.js';

/**
 * Runs `read` so that its statements see one state of the database, for reads that must
 * agree (a list page and its total). On SQLite in worker threads the statements could
 * otherwise run on two readers, one of them after a write committed in between: here they
 * run in one read-only transaction on one reader (`BEGIN` … `COMMIT`, one WAL snapshot).
 * Elsewhere `read` runs as it always has: the main-thread SQLite connection and PostgreSQL's
 * pool are unchanged by this (PostgreSQL's read committed takes a snapshot per statement).
 * Inside a transaction, the transaction already is the snapshot.
 */
export function readSnapshot<T>(db: Kysely<Database>, read: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction || !isThreadedSqlite(db)) return read(db);
  return db.transaction().setAccessMode('read only').execute(read);
}
