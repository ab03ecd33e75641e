import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FeedReader } from '../descriptor.js';
import { presentOrder } from './present.js';
import { itemsOf } from './repository.js';

export async function ordersForFeed(
  db: Kysely<Database>,
  reader: FeedReader,
  ids: number[],
): Promise<Map<number, unknown>> {
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('project_id', '=', reader.projectId)
    .where('id', 'in', ids)
    .execute();
  const items = await itemsOf(
    db,
    reader.projectId,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, presentOrder(r, items.get(r.id) ?? [])]));
}
