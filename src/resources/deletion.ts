import type { Kysely } from 'kysely';
import { recordChanges } from '../changes/record.js';
import type { Database } from '../db/schema.js';
import type { Deletion, ResourceDescriptor } from './descriptor.js';

/**
 * Deletes records of one resource with their cascades (its descriptor's deleteRecords) and
 * logs every change that made, in the caller's transaction, which has bumped the project's
 * data_version first. The one path of every deletion: an import's, `storefront delete`'s.
 */
export async function deleteRecords(
  trx: Kysely<Database>,
  projectId: string,
  resource: ResourceDescriptor,
  ids: number[],
): Promise<Deletion> {
  if (ids.length === 0) return { deleted: 0, changes: [] };
  const done = await resource.deleteRecords(trx, projectId, ids);
  await recordChanges(trx, projectId, done.changes);
  return done;
}

/** Deletes a resource's own rows by id within the project; returns the ids that were there. */
export async function deleteOwnRows(
  trx: Kysely<Database>,
  table: 'orders' | 'users' | 'products',
  projectId: string,
  ids: number[],
): Promise<number[]> {
  const gone = await trx
    .deleteFrom(table as 'orders')
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .returning('id')
    .execute();
  return gone.map((r) => r.id);
}
