import { type Kysely, sql } from 'kysely';
import type { ChangeEntry } from '../../changes/entry.js';
import type { Database } from '../../db/schema.js';
import type { Deletion } from '../descriptor.js';
import { forgetCategoryCounts } from '../products/counts.js';

/**
 * A deleted category takes its whole subtree with it; products stay, without those
 * categories (and so they changed). The subtree is found by one recursive query on
 * categories_by_parent.
 */
export async function deleteCategories(trx: Kysely<Database>, projectId: string, ids: number[]): Promise<Deletion> {
  const subtree = await sql<{ id: number }>`
    with recursive tree(id) as (
      select id from categories where project_id = ${projectId} and id in (${sql.join(ids)})
      union
      select c.id from categories c join tree on c.parent_id = tree.id where c.project_id = ${projectId}
    )
    select id from tree`.execute(trx);
  const deleted = subtree.rows.map((r) => Number(r.id));
  if (deleted.length === 0) return { deleted: 0, changes: [] };
  await trx.deleteFrom('categories').where('project_id', '=', projectId).where('id', 'in', deleted).execute();
  const links = await trx
    .deleteFrom('product_categories')
    .where('project_id', '=', projectId)
    .where('category_id', 'in', deleted)
    .returning('product_id')
    .execute();
  await forgetCategoryCounts(trx, projectId, deleted); // no product is in them any more
  const changes: ChangeEntry[] = deleted.map((id) => ({ type: 'category', id, action: 'delete' }));
  for (const product of new Set(links.map((l) => l.product_id)))
    changes.push({ type: 'product', id: product, action: 'upsert' });
  return { deleted: deleted.length, changes };
}
