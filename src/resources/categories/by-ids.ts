import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FeedReader } from '../descriptor.js';

/**
 * Categories of the change feed: each one flat, `{ id, handle, name, parent_id }`, the tree
 * following from parent_id (docs/API.md, "The change feed"). Nested as the list nests them,
 * a category's entry would change with every change below it.
 */
export async function categoriesForFeed(
  db: Kysely<Database>,
  reader: FeedReader,
  ids: number[],
): Promise<Map<number, unknown>> {
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'handle', 'name', 'parent_id'])
    .where('project_id', '=', reader.projectId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, handle: r.handle, name: r.name, parent_id: r.parent_id }]));
}
