import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Viewer } from '../descriptor.js';
import { categoryRecord } from './present.js';

/**
 * Categories by id, each one flat, `{ id, handle, name, parent_id }`, the tree following from
 * parent_id (docs/API.md, "The change feed"): nested as the list nests them, a category's
 * entry would change with every change below it. The record form (the export) adds its times.
 */
export async function categoriesByIds(
  db: Kysely<Database>,
  viewer: Viewer,
  ids: number[],
): Promise<Map<number, unknown>> {
  const rows = await db
    .selectFrom('categories')
    .selectAll()
    .where('project_id', '=', viewer.projectId)
    .where('id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      viewer.form === 'record'
        ? categoryRecord(r)
        : { id: r.id, handle: r.handle, name: r.name, parent_id: r.parent_id },
    ]),
  );
}
