import type { Kysely } from 'kysely';
import type { ChangeEntry } from '../../changes/entry.js';
import type { Database } from '../../db/schema.js';
import { deleteOwnRows } from '../deletion.js';
import type { DerivedTally, Deletion } from '../descriptor.js';

/**
 * A deleted product leaves every category and list; the items of orders that held it keep
 * their name and price with product_id null, so those orders changed too.
 */
export async function deleteProducts(
  trx: Kysely<Database>,
  projectId: string,
  ids: number[],
  tally?: DerivedTally,
): Promise<Deletion> {
  // The kept counts, before the rows go: the write unit writes the write's tally once.
  if (!tally) throw new Error("deleting products needs the write's tally (ctx.tally)");
  await tally.remove(ids);
  const deleted = await deleteOwnRows(trx, 'products', projectId, ids);
  if (deleted.length === 0) return { deleted: 0, changes: [] };
  await trx
    .deleteFrom('product_categories')
    .where('project_id', '=', projectId)
    .where('product_id', 'in', deleted)
    .execute();
  const items = await trx
    .updateTable('order_items')
    .set({ product_id: null })
    .where('project_id', '=', projectId)
    .where('product_id', 'in', deleted)
    .returning('order_id')
    .execute();
  const changes: ChangeEntry[] = deleted.map((id) => ({ type: 'product', id, action: 'delete' }));
  for (const order of new Set(items.map((i) => i.order_id)))
    changes.push({ type: 'order', id: order, action: 'upsert' });
  return { deleted: deleted.length, changes };
}
