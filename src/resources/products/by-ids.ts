import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FeedReader } from '../descriptor.js';
import { SHOWN_COLUMNS, presentProduct } from './present.js';
import { categoryIdsOf } from './repository.js';

/** Products of the change feed, as the list shows them: a hidden one only with fetch_hidden. */
export async function productsForFeed(
  db: Kysely<Database>,
  reader: FeedReader,
  ids: number[],
): Promise<Map<number, unknown>> {
  let q = db
    .selectFrom('products')
    .select(SHOWN_COLUMNS)
    .where('project_id', '=', reader.projectId)
    .where('id', 'in', ids);
  if (!reader.includeHidden) q = q.where('show_in_store', '=', 1);
  const rows = await q.execute();
  const categories = await categoryIdsOf(
    db,
    reader.projectId,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, presentProduct(r, reader.currency, categories.get(r.id) ?? [])]));
}
