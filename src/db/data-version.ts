import { type Kysely, sql } from 'kysely';
import { beforeProjectLock } from '../changes/ordering.js';
import type { Database } from './schema.js';

// projects.data_version (migration 002) changes whenever anything of the project that an
// answer shows changes. Every write path bumps it inside its own transaction, so the bump
// commits exactly with the data; the project row, read on every request, then carries the
// version the caches are keyed by (src/cache/). Another process's write is therefore seen
// by the next request, with no message between processes.
//
// Call it first in a transaction: it locks the project row (PostgreSQL), so writers of one
// project always lock in the same order (project, then its rows) and never deadlock. The
// bumped value is also the seq of the transaction's entries in the change log: the lock
// makes it follow commit order (src/changes/record.ts).

export async function bumpDataVersion(db: Kysely<Database>, projectId: string): Promise<void> {
  await beforeProjectLock(db);
  await db
    .updateTable('projects')
    .set({ data_version: sql`data_version + 1` })
    .where('id', '=', projectId)
    .execute();
}
