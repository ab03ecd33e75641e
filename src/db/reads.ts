import type { Kysely } from 'kysely';
import { isPostgres, readOnlySnapshot } from './dialect.js';
import { SnapshotLost } from './replica-pool.js';
import type { Database } from './schema.js';
import { isThreadedSqlite } from './sqlite-threads-dialect.js';
import { writtenVersion } from './written-versions.js';

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
// Read replicas (DATABASE_REPLICA_URLS, CONTRACT 16) are chosen here too: `choices()` lists the
// handles a request's reads may use, best first: the healthy replicas, rotated so that each
// takes its turn (src/db/replicas.ts keeps their health), then the primary's, always last. A
// request takes the first whose project row has reached the version it must see
// (resources/projects/reader.ts) and makes all its reads there, so that the versions the caches
// are keyed by are those of the database that served the data. Without replicas, `choices()` is
// this handle alone and nothing changes.

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
  /** where these reads run: `primary`, or a replica's name (host:port/database) */
  readonly source: string;
  /** The handles a request may read through, best first; the primary's is always the last. */
  choices(): readonly Reads[];
  /** The highest version of the project this process has written (0: none), src/db/written-versions.ts. */
  written(projectId: string): number;
  /**
   * `snapshot` for a read of many statements over a long time (an export of a million rows,
   * page after page): on PostgreSQL too its statements see one state, in a `REPEATABLE READ`
   * read-only transaction held for the whole read (one pooled connection). On a SQLite file
   * served by threads, one reader's read-only transaction as `snapshot`; on a SQLite handle
   * with one connection (the CLI, `:memory:`) the statements run on it unwrapped, since a
   * transaction there would hold the process's only connection, every write waiting.
   */
  longSnapshot<T>(read: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * `longSnapshot` for a short read that must see one state on every handle (a page of the
   * change feed: its `next` is the version it read): on a SQLite handle with one connection
   * too, in a transaction, since other requests' writes run between its statements there.
   */
  exactSnapshot<T>(read: (db: Kysely<Database>) => Promise<T>): Promise<T>;
}

export interface ReadRouting {
  /** the name of the database these reads run on (`primary` for the storage's own) */
  source: string;
  /** the usable replicas' handles, in the order to try them (none: the primary alone) */
  replicas?: () => readonly Reads[];
  /**
   * A replica's: the primary's handle, where a snapshot read the replica lost (a recovery
   * conflict, a lost connection: SnapshotLost, replica-pool.ts) restarts whole.
   */
  primary?: () => Reads;
}

/**
 * The read handle over a storage's connections: `general` for most reads, `point` for reads by
 * key; `db` is the storage's own (the process's writes are remembered by it).
 */
export function readsOver(
  db: Kysely<Database>,
  general: Kysely<Database> = db,
  point: Kysely<Database> = general,
  routing: ReadRouting = { source: 'primary' },
): Reads {
  const replicas = routing.replicas;
  const { primary } = routing;
  // On a replica, a snapshot it lost is read again from the start on the primary: none of its
  // statements' answers are kept, so the read sees the primary's one state.
  const restarting = <T>(first: Promise<T>, again: (on: Reads) => Promise<T>): Promise<T> =>
    primary
      ? first.catch((error: unknown) => {
          if (!(error instanceof SnapshotLost)) throw error;
          return again(primary());
        })
      : first;
  const reads: Reads = {
    point,
    general,
    snapshot(read) {
      if (general.isTransaction || !isThreadedSqlite(general)) return read(general);
      return general.transaction().setAccessMode('read only').execute(read);
    },
    source: routing.source,
    choices: replicas ? () => [...replicas(), reads] : () => alone,
    written: (projectId) => writtenVersion(db, projectId),
    longSnapshot(read) {
      if (general.isTransaction) return read(general);
      if (isPostgres(general))
        return restarting(readOnlySnapshot(general).execute(read), (on) => on.longSnapshot(read));
      return reads.snapshot(read);
    },
    exactSnapshot(read) {
      if (general.isTransaction || isThreadedSqlite(general)) return reads.snapshot(read);
      return restarting(readOnlySnapshot(general).execute(read), (on) => on.exactSnapshot(read));
    },
  };
  const alone = [reads];
  return reads;
}
