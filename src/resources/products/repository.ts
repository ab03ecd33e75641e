import { type Kysely, sql } from 'kysely';
import type { Reads } from '../../db/reads.js';
import type { Database } from '../../db/schema.js';
import { recordChanges } from '../../changes/record.js';
import { bumpDataVersion } from '../../db/data-version.js';
import { forUpdate, joinedIdList } from '../../db/dialect.js';
import { invalid } from '../../errors.js';
import type { Ref } from '../../http/params.js';
import { enqueueEvents, wakeDelivery } from '../../webhooks/outbox.js';
import { GramDeltas } from './gram-deltas.js';
import { writeGramDeltas } from './grams.js';
import {
  type ProductRow,
  SHOWN_COLUMNS,
  type ShownProductRow,
  nameKey,
  presentProduct,
  searchText,
} from './present.js';
import type { ProductUpdate } from './schemas.js';

/**
 * A product by id or handle, with its category ids (ascending), in one statement on the point
 * connection: a single product is one read, and its categories are those of the same snapshot.
 */
export async function findProduct(
  reads: Reads,
  projectId: string,
  ref: Ref,
  includeHidden: boolean,
): Promise<{ row: ShownProductRow; categoryIds: number[] } | undefined> {
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
    .where('project_id', '=', projectId);
  q = 'id' in ref ? q.where('id', '=', ref.id) : q.where('handle', '=', ref.handle);
  if (!includeHidden) q = q.where('show_in_store', '=', 1);
  const found = await q.executeTakeFirst();
  if (!found) return undefined;
  const { category_list, ...row } = found;
  return { row, categoryIds: category_list ? category_list.split(',').map(Number) : [] };
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

/**
 * Applies a partial update in one transaction. The row is locked while the inventory rules
 * are judged against the type the product will have after this update, so two concurrent
 * updates of different fields both survive. Undefined when there is no such product.
 */
/**
 * `check` runs on the locked current row before anything is written (If-Match): it throws
 * to refuse the update, and then nothing changes.
 */
export async function updateProduct(
  db: Kysely<Database>,
  projectId: string,
  ref: Ref,
  changes: ProductUpdate,
  check?: (trx: Kysely<Database>, current: ProductRow) => Promise<void>,
): Promise<ProductRow | undefined> {
  const updated = await db.transaction().execute(async (trx) => {
    // First, so that the project row is locked before the product row, as every writer does.
    await bumpDataVersion(trx, projectId);
    let q = trx.selectFrom('products').selectAll().where('project_id', '=', projectId);
    q = 'id' in ref ? q.where('id', '=', ref.id) : q.where('handle', '=', ref.handle);
    const current = await forUpdate(trx, q).executeTakeFirst();
    if (!current) return undefined;
    if (check) await check(trx, current);

    const type = changes.inventory_type ?? current.inventory_type;
    if (changes.in_stock !== undefined && type === 'advanced') {
      throw invalid(
        'in_stock',
        'applies only to simple products; this product is advanced (send stock_quantity instead)',
      );
    }
    if (changes.stock_quantity !== undefined && type === 'simple') {
      throw invalid(
        'stock_quantity',
        'applies only to advanced products; this product is simple (send in_stock instead)',
      );
    }
    if (changes.name !== undefined && changes.name.trim() === '') throw invalid('name', 'must not be only white space');

    const set: Partial<ProductRow> = { updated_at: Math.floor(Date.now() / 1000) };
    if (changes.name !== undefined) {
      set.name = changes.name;
      set.name_key = nameKey(changes.name);
      set.search_text = searchText(changes.name, current.description, current.sku);
    }
    if (changes.price !== undefined) set.price = changes.price;
    if (changes.inventory_type !== undefined) set.inventory_type = changes.inventory_type;
    if (changes.in_stock !== undefined) set.in_stock = changes.in_stock ? 1 : 0;
    if (changes.stock_quantity !== undefined) set.stock_quantity = changes.stock_quantity;

    await trx
      .updateTable('products')
      .set(set)
      .where('project_id', '=', projectId)
      .where('id', '=', current.id)
      .execute();
    if (set.search_text !== undefined && set.search_text !== current.search_text) {
      // A new name: the kept search-gram counts follow (grams.ts).
      const grams = new GramDeltas();
      grams.add(current.search_text, current.show_in_store === 1, -1);
      grams.add(set.search_text, current.show_in_store === 1, 1);
      await writeGramDeltas(trx, projectId, grams);
    }
    await recordChanges(trx, projectId, [{ type: 'product', id: current.id, action: 'upsert' }]);
    const row = { ...current, ...set };
    // In this transaction: the event commits with the change (src/webhooks/outbox.ts). The
    // product is presented only when an endpoint listens.
    await enqueueEvents(trx, projectId, async () => {
      const { currency } = await trx
        .selectFrom('projects')
        .select('currency')
        .where('id', '=', projectId)
        .executeTakeFirstOrThrow();
      const categories = (await categoryIdsOf(trx, projectId, [row.id])).get(row.id) ?? [];
      return [{ type: 'product.updated', data: presentProduct(row, currency, categories) }];
    });
    return row;
  });
  wakeDelivery();
  return updated;
}
