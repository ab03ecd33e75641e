import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FeedReader } from '../descriptor.js';
import { presentUser } from './present.js';
import { subscriptionsOf } from './repository.js';

export async function usersForFeed(
  db: Kysely<Database>,
  reader: FeedReader,
  ids: number[],
): Promise<Map<number, unknown>> {
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', reader.projectId)
    .where('id', 'in', ids)
    .execute();
  const subscriptions = await subscriptionsOf(
    db,
    reader.projectId,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, presentUser(r, subscriptions.get(r.id) ?? [])]));
}
