import type { Kysely } from 'kysely';
import { isPostgres, readOnlySnapshot } from './dialect.js';
import type { Database } from './schema.js';
import { isThreadedSqlite } from './sqlite-threads-dialect.js';

// The read handle: the one place that decides which connection a read runs on. Repositories
// say what kind of read they make (bounded by a primary key, any other, or several that must
// agree) and never which connection serves it; routes and plugins pass the storage's handle
// (`storage.reads`) and never name a connection. Today (docs/ARCHITECTURE.md, "The read
// path"):
//
// - `point`: on a SQLite file served by worker threads, the main thread's own connection
//   (such a read takes microseconds, less than a message's round trip to a thread; WAL readers
//   never wait for a writer); on PostgreSQL a Kysely over the same pool whose statements are
//   named (`namingStatements`, connect.ts); elsewhere `general`.
// - `general`: the storage's `db` (on threaded SQLite, the reader threads).
// - `snapshot`: on threaded SQLite a read-only transaction held on one reader; elsewhere the
//   statements simply run on `general`, as they always have.
//
// Read replicas, when they come, are chosen here.

export interface Reads {
  /**
   * For reads bounded by a primary key (one product, the project row, a key, `ids=`). Never
   * for a write that may wait for a lock (the key checker's last_used_at write runs here with
   * busy_timeout 0: busy, it is skipped).
   */
  readonly point: Kysely<Database>;
  /** Every other read outside a transaction. */
  readonly general: Kysely<Database>;
  /**
   * Runs `read` so that its statements see one state of the database, for reads that must
   * agree (a list page, its total and the rows' parts). On SQLite in worker threads the
   * statements could otherwise run on two readers, one of them after a write committed in
   * between: here they run in one read-only transaction on one reader (`BEGIN` … `COMMIT`,
   * one WAL snapshot). Elsewhere `read` runs on `general` (PostgreSQL's read committed takes
   * a snapshot per statement). Inside a transaction, the transaction already is the snapshot.
   */
  snapshot<T>(read: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * `snapshot` for a read of many statements over a long time (an export of a million rows,
   * page after page): on PostgreSQL too its statements see one state, in a `REPEATABLE READ`
   * read-only transaction held for the whole read (one pooled connection). On a SQLite file
   * served by threads, one reader's read-only transaction as `snapshot`; on a SQLite handle
   * with one connection (the CLI, `:memory:`) the statements run on it unwrapped, since a
   * transaction there would hold the process's only connection, every write waiting.
   */
  longSnapshot<T>(read: (db: Kysely<Database>) => Promise<T>): Promise<T>;
}

/** The read handle over a storage's connections: `general` for most reads, `point` for reads by key. */
export function readsOver(general: Kysely<Database>, point: Kysely<Database> = general): Reads {
  return {
    point,
    general,
    snapshot(read) {
      if (general.isTransaction || !isThreadedSqlite(general)) return read(general);
      return general.transaction().setAccessMode('read only').execute(read);
    },
    longSnapshot(read) {
      if (general.isTransaction) return read(general);
      if (isPostgres(general)) return readOnlySnapshot(general).execute(read);
      return this.snapshot(read);
    },
  };
}
