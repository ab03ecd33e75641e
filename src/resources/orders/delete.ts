import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { deleteOwnRows } from '../deletion.js';
import type { Deletion } from '../descriptor.js';

/** A deleted order goes with its items. */
export async function deleteOrders(trx: Kysely<Database>, projectId: string, ids: number[]): Promise<Deletion> {
  const deleted = await deleteOwnRows(trx, 'orders', projectId, ids);
  if (deleted.length === 0) return { deleted: 0, changes: [] };
  await trx.deleteFrom('order_items').where('project_id', '=', projectId).where('order_id', 'in', deleted).execute();
  return { deleted: deleted.length, changes: deleted.map((id) => ({ type: 'order', id, action: 'delete' })) };
}
