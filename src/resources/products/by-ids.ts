import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Viewer } from '../descriptor.js';
import { SHOWN_COLUMNS, presentProduct, productRecord } from './present.js';
import { categoryIdsOf } from './repository.js';

/** Products by id, as the viewer sees them: a hidden one only when it may see hidden ones. */
export async function productsByIds(
  db: Kysely<Database>,
  viewer: Viewer,
  ids: number[],
): Promise<Map<number, unknown>> {
  let q = db
    .selectFrom('products')
    .select(SHOWN_COLUMNS)
    .where('project_id', '=', viewer.projectId)
    .where('id', 'in', ids);
  if (!viewer.includeHidden) q = q.where('show_in_store', '=', 1);
  const rows = await q.execute();
  const categories = await categoryIdsOf(
    db,
    viewer.projectId,
    rows.map((r) => r.id),
  );
  return new Map(
    rows.map((r) => {
      const of = categories.get(r.id) ?? [];
      return [r.id, viewer.form === 'record' ? productRecord(r, of) : presentProduct(r, viewer.currency, of)];
    }),
  );
}
