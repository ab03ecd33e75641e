import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deletion } from '../descriptor.js';

/** A deleted order goes with its items. */
export async function deleteOrders(trx: Kysely<Database>, projectId: string, ids: number[]): Promise<Deletion> {
  const gone = await trx
    .deleteFrom('orders')
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .returning('id')
    .execute();
  if (gone.length === 0) return { deleted: 0, changes: [] };
  const deleted = gone.map((r) => r.id);
  await trx.deleteFrom('order_items').where('project_id', '=', projectId).where('order_id', 'in', deleted).execute();
  return { deleted: deleted.length, changes: deleted.map((id) => ({ type: 'order', id, action: 'delete' })) };
}
