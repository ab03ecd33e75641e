import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { WriteContext } from '../writes/write-project.js';
import type { ResourceDescriptor } from './descriptor.js';

/**
 * Deletes records of one resource with their cascades (its descriptor's deleteRecords),
 * declares every change that made to the write, and counts the deleted records for its
 * `import.completed`. The one path of every deletion: an import's, `storefront delete`'s.
 */
export async function deleteRecords(ctx: WriteContext, resource: ResourceDescriptor, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const done = await resource.deleteRecords(ctx.db, ctx.projectId, ids);
  for (const type of new Set(done.changes.map((c) => c.type)))
    for (const action of ['upsert', 'delete'] as const) {
      const ids = done.changes.filter((c) => c.type === type && c.action === action).map((c) => c.id);
      await ctx.changed(type, ids, action);
    }
  ctx.count(resource.kind, 'deleted', done.deleted);
  return done.deleted;
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
