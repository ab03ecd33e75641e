import type { ResourceDescriptor } from '../resources/descriptor.js';
import type { WriteContext } from './write-project.js';

/**
 * Deletes records of one resource with their cascades (its descriptor's deleteRecords),
 * declares every change that made to the write, and counts the deleted records for its
 * `import.completed`. The one path of every deletion: an import's, `storefront delete`'s.
 */
export async function deleteRecords(ctx: WriteContext, resource: ResourceDescriptor, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const done = await resource.deleteRecords(ctx.db, ctx.projectId, ids, ctx.tally(resource));
  for (const type of new Set(done.changes.map((c) => c.type)))
    for (const action of ['upsert', 'delete'] as const) {
      const ids = done.changes.filter((c) => c.type === type && c.action === action).map((c) => c.id);
      await ctx.changed(type, ids, action);
    }
  ctx.count(resource.kind, 'deleted', done.deleted);
  return done.deleted;
}
