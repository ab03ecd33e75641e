import { type Kysely, sql } from 'kysely';
import { beforeProjectLock } from '../changes/ordering.js';
import type { Database } from './schema.js';

// projects.data_version (migration 002) changes whenever anything of the project that an
// answer shows changes. The write unit (src/writes/write-project.ts) bumps it first in every
// write transaction, so the bump commits exactly with the data; the project row, read on
// every request, then carries the versions the caches are keyed by (the per-type ones set in the
// same transaction, src/writes/type-versions.ts; the change feed's is this one). Another
// process's write is therefore seen by the next request, with no message between processes.
//
// First in a transaction: it locks the project row (PostgreSQL), so writers of one project
// always lock in the same order (project, then its rows) and never deadlock. The bumped
// value is also the seq of the transaction's entries in the change log: the lock makes it
// follow commit order (src/changes/record.ts).

/** Bumps the version; the new one, or undefined when there is no such project (yet). */
export async function bumpDataVersion(db: Kysely<Database>, projectId: string): Promise<number | undefined> {
  await beforeProjectLock(db);
  const row = await db
    .updateTable('projects')
    .set({ data_version: sql`data_version + 1` })
    .where('id', '=', projectId)
    .returning('data_version')
    .executeTakeFirst();
  return row && Number(row.data_version);
}

export async function dataVersionOf(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('projects')
    .select('data_version')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.data_version);
}
