import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

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
