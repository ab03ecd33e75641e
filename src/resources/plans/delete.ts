import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deletion } from '../descriptor.js';

/**
 * A plan is not removed: its status becomes `deleted` (users' subscriptions to it stay, as
 * history). It leaves the plans list, so the feed shows it as a `delete`.
 */
export async function deletePlans(trx: Kysely<Database>, projectId: string, ids: number[]): Promise<Deletion> {
  const marked = await trx
    .updateTable('plans')
    .set({ status: 'deleted', updated_at: Math.floor(Date.now() / 1000) })
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .returning('id')
    .execute();
  return { deleted: marked.length, changes: marked.map((r) => ({ type: 'plan', id: r.id, action: 'upsert' })) };
}
