import type { Kysely } from 'kysely';
import { inPlace } from '../../cache/invalidation.js';
import { forUpdate } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { invalid } from '../../errors.js';
import type { Ref } from '../../http/params.js';
import { writeProject } from '../../writes/write-project.js';
import { productsDescriptor } from './descriptor.js';
import { categoryIdsOf } from './repository.js';
import { type ProductRow, nameKey, searchText } from './present.js';
import type { ProductUpdate } from './schemas.js';

/**
 * Applies a partial update in one write of the project (src/writes/). The row is locked
 * while the inventory rules are judged against the type the product will have after this
 * update, so two concurrent updates of different fields both survive. `check` runs on the
 * locked current row before anything is written (If-Match): it throws to refuse the update,
 * and then nothing changes. The updated row with its category ids, read in the write;
 * undefined when there is no such product.
 */
export async function updateProduct(
  storage: { db: Kysely<Database> },
  projectId: string,
  ref: Ref,
  changes: ProductUpdate,
  check?: (trx: Kysely<Database>, current: ProductRow) => Promise<void>,
): Promise<{ row: ProductRow; categoryIds: number[] } | undefined> {
  const write = await writeProject(storage, projectId, async (ctx) => {
    const trx = ctx.db;
    let q = trx.selectFrom('products').selectAll().where('project_id', '=', projectId);
    q = 'id' in ref ? q.where('id', '=', ref.id) : q.where('handle', '=', ref.handle);
    const current = await forUpdate(trx, q).executeTakeFirst();
    if (!current) return undefined;
    if (check) await check(trx, current);
    const set = columnsToSet(current, changes);
    // A new name changes the kept search-gram counts: the write's tally takes the product out
    // as stored and adds it back as written (tally.ts), and the unit writes the sums once.
    const renamed = set.search_text !== undefined && set.search_text !== current.search_text;
    const tally = renamed ? ctx.tally(productsDescriptor) : undefined;
    await tally?.remove([current.id]);
    await trx
      .updateTable('products')
      .set(set)
      .where('project_id', '=', projectId)
      .where('id', '=', current.id)
      .execute();
    const row = { ...current, ...set };
    const categoryIds = (await categoryIdsOf(trx, projectId, [current.id])).get(current.id) ?? [];
    const links = categoryIds.map((category_id) => ({ category_id }));
    tally?.add([{ row, children: { product_categories: links } }]);
    // Fields no list reads move the product in no list: the lists' totals stay.
    if (inPlace(Object.keys(changes))) await ctx.changedInPlace('product', [current.id]);
    else await ctx.changed('product', [current.id]);
    return { row, categoryIds };
  });
  return write.value;
}

/** The columns an update writes, judged against the current row (a 400 for what cannot apply). */
function columnsToSet(current: ProductRow, changes: ProductUpdate): Partial<ProductRow> {
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
  return set;
}
