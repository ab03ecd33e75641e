import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { isThreadedSqlite } from './sqlite-threads-dialect.js';

/**
 * Whether a bulk write should start a batch and gather the next while it runs, instead of
 * waiting for each (src/import/session.ts). Only where the statements run on a thread of
 * their own, SQLite's writer thread (`storefront import`): the main thread's parsing and
 * checking then no longer waits for the inserts. On PostgreSQL overlapping gained nothing
 * (its server is busy most of an import) and left reads beside the import less of the
 * machine; on the main-thread SQLite connection a statement runs to its end anyway.
 * Measured in docs/PERFORMANCE.md ("Imports").
 */
export function overlapsBatches(db: Kysely<Database>): boolean {
  return isThreadedSqlite(db);
}
