import { type Kysely, sql } from 'kysely';
import type { Reads } from '../../db/reads.js';
import type { Database } from '../../db/schema.js';
import { joinedIdList } from '../../db/dialect.js';
import type { Ref } from '../../http/params.js';
import { SHOWN_COLUMNS, type ShownProductRow } from './present.js';
import { OWN_VERSION } from './versions.js';

/**
 * A product by id or handle, with its category ids (ascending) and its own version
 * (versions.ts), in one statement on the point connection: a single product is one read, and
 * its categories and version are those of the same snapshot.
 */
export async function findProduct(
  reads: Reads,
  projectId: string,
  ref: Ref,
  includeHidden: boolean,
): Promise<{ row: ShownProductRow; categoryIds: number[]; version: number } | undefined> {
  const list = joinedIdList(
    reads.point,
    'pc.category_id',
    sql`from product_categories pc
        where pc.project_id = products.project_id and pc.product_id = products.id`,
  );
  let q = reads.point
    .selectFrom('products')
    .select(SHOWN_COLUMNS)
    .select(list.as('category_list'))
    .select(OWN_VERSION.as('version'))
    .where('project_id', '=', projectId);
  q = 'id' in ref ? q.where('id', '=', ref.id) : q.where('handle', '=', ref.handle);
  if (!includeHidden) q = q.where('show_in_store', '=', 1);
  const found = await q.executeTakeFirst();
  if (!found) return undefined;
  const { category_list, version, ...row } = found;
  return { row, categoryIds: category_list ? category_list.split(',').map(Number) : [], version: Number(version ?? 0) };
}

/** Category ids of each product, ascending. */
export async function categoryIdsOf(
  db: Kysely<Database>,
  projectId: string,
  productIds: number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return out;
  const rows = await db
    .selectFrom('product_categories')
    .select(['product_id', 'category_id'])
    .where('project_id', '=', projectId)
    .where('product_id', 'in', productIds)
    .orderBy('product_id')
    .orderBy('category_id')
    .execute();
  for (const r of rows) out.get(r.product_id)?.push(r.category_id);
  return out;
}
