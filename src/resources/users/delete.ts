import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { deleteOwnRows } from '../deletion.js';
import type { Deletion } from '../descriptor.js';

/** A deleted user goes with its subscriptions; its orders stay (they name an email, not a user). */
export async function deleteUsers(trx: Kysely<Database>, projectId: string, ids: number[]): Promise<Deletion> {
  const deleted = await deleteOwnRows(trx, 'users', projectId, ids);
  if (deleted.length === 0) return { deleted: 0, changes: [] };
  await trx.deleteFrom('subscriptions').where('project_id', '=', projectId).where('user_id', 'in', deleted).execute();
  return { deleted: deleted.length, changes: deleted.map((id) => ({ type: 'user', id, action: 'delete' })) };
}
