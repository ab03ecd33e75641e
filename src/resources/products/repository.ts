import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CountScope } from '../../cache/count-cache.js';
import { recordChanges } from '../../changes/record.js';
import { bumpDataVersion } from '../../db/data-version.js';
import { forUpdate, isPostgres } from '../../db/dialect.js';
import { containsCondition, searchCondition } from '../../db/search-index.js';
import { invalid } from '../../errors.js';
import type { Ref } from '../../http/params.js';
import { enqueueEvents, wakeDelivery } from '../../webhooks/outbox.js';
import { keptCount } from './counts.js';
import { GramDeltas } from './gram-deltas.js';
import { keptGramCount, writeGramDeltas } from './grams.js';
import { type ProductRow, foldCase, nameKey, presentProduct, searchText } from './present.js';
import type { OrderClause, ProductUpdate } from './schemas.js';

export interface ProductFilter {
  projectId: string;
  includeHidden: boolean;
  categoryId?: number;
  search?: string;
  ids?: number[];
}

/** The filter as a count-cache key: every field that changes which rows match. */
function filterKey(f: ProductFilter): string {
  return JSON.stringify([
    'products',
    f.includeHidden,
    f.categoryId ?? null,
    f.search ?? null,
    f.ids ? [...new Set(f.ids)].sort((a, b) => a - b) : null,
  ]);
}

const ORDER_COLUMNS = { name: 'name_key', price: 'price', date: 'created_at', custom: 'custom_sort' } as const;

/**
 * The rows of a filter. `walk` (SQLite): the filter matches many rows, so the query should
 * walk the ordering's index and test each row; otherwise it starts from the few matches of
 * the category or the search and sorts them. PostgreSQL's planner makes this choice itself
 * from its statistics; SQLite's takes the first form whatever the numbers.
 */
function filtered(
  db: Kysely<Database>,
  f: ProductFilter,
  walk = true,
): SelectQueryBuilder<Database, 'products', object> {
  let q = db.selectFrom('products').where('products.project_id', '=', f.projectId);
  if (!f.includeHidden) q = q.where('products.show_in_store', '=', 1);
  if (f.categoryId !== undefined && !walk) {
    const categoryId = f.categoryId;
    q = q.where('products.id', 'in', (eb) =>
      eb
        .selectFrom('product_categories as pc')
        .select('pc.product_id')
        .where('pc.project_id', '=', f.projectId)
        .where('pc.category_id', '=', categoryId),
    );
  } else if (f.categoryId !== undefined) {
    const categoryId = f.categoryId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('product_categories as pc')
          .select(sql`1`.as('one'))
          .whereRef('pc.project_id', '=', 'products.project_id')
          .whereRef('pc.product_id', '=', 'products.id')
          .where('pc.category_id', '=', categoryId),
      ),
    );
  }
  if (f.ids) q = q.where('products.id', 'in', f.ids);
  // Within ≤ 100 ids, a plain LIKE of each row beats gathering every match of the term.
  if (f.search)
    q = q.where(f.ids ? containsCondition(foldCase(f.search)) : searchCondition(db, foldCase(f.search), walk));
  return q;
}

export async function listProducts(
  db: Kysely<Database>,
  filter: ProductFilter,
  order: OrderClause[],
  page: number,
  perpage: number,
  counts?: CountScope,
): Promise<{ rows: ProductRow[]; total: number }> {
  // A search term holding the field separator could only match across two fields.
  if (filter.search?.includes('\u001f')) return { rows: [], total: 0 };
  const countOf = (f: ProductFilter) => {
    const counted = async () =>
      Number(
        (
          await filtered(db, f)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // No search: the kept counts (counts.ts) hold the total, in all or in the category. A
    // term of 1 to 3 characters alone: the kept search-gram counts (grams.ts).
    const count =
      f.search === undefined
        ? () => keptCount(db, f.projectId, f.categoryId, f.includeHidden)
        : f.categoryId === undefined
          ? async () =>
              (await keptGramCount(db, f.projectId, foldCase(f.search!), f.includeHidden)) ?? (await counted())
          : counted;
    return counts ? counts.cache.get(counts.project, filterKey(f), count) : count();
  };
  const offset = (page - 1) * perpage;
  if (filter.ids) {
    const rows = await byIds(db, filter, order);
    return { rows: rows.slice(offset, offset + perpage), total: rows.length };
  }
  const sqlite = !isPostgres(db);
  const narrowed = filter.categoryId !== undefined || (filter.search !== undefined && [...filter.search].length >= 3);
  if (!sqlite || !narrowed) {
    const [rows, total] = await Promise.all([pageOf(db, filter, order, offset, perpage, true), countOf(filter)]);
    return { rows, total };
  }
  // SQLite, a category or a searched term: the totals (cached) tell how dense the matches
  // are. Walking the ordering's index reads about (offset + perpage) * all / matches rows;
  // starting from the matches reads and sorts all of them. Take the cheaper.
  const [total, all] = await Promise.all([
    countOf(filter),
    countOf({ projectId: filter.projectId, includeHidden: filter.includeHidden }),
  ]);
  if (offset >= total) return { rows: [], total };
  const walk = total * total > (offset + perpage) * all;
  return { rows: await pageOf(db, filter, order, offset, perpage, walk), total };
}

/**
 * `ids=`: at most 100 rows, fetched by primary key and then sorted, all of them (the page is
 * cut here, and their number is the total). The MATERIALIZED CTE keeps both planners from
 * walking the ordering's index over the whole catalog to avoid the sort, testing each row
 * against the list: that read most of the project for 50 random ids.
 */
async function byIds(db: Kysely<Database>, filter: ProductFilter, order: OrderClause[]): Promise<ProductRow[]> {
  let q = db
    .with(
      (cte) => cte('picked').materialized(),
      () => filtered(db, filter).selectAll('products'),
    )
    .selectFrom('picked as products')
    .selectAll('products');
  for (const clause of order) {
    const [key, dir] = clause.split('_') as [keyof typeof ORDER_COLUMNS, 'asc' | 'desc'];
    q = q.orderBy(`products.${ORDER_COLUMNS[key]}`, dir);
  }
  q = q.orderBy('products.id', order[order.length - 1].endsWith('_desc') ? 'desc' : 'asc');
  return q.execute();
}

async function pageOf(
  db: Kysely<Database>,
  filter: ProductFilter,
  order: OrderClause[],
  offset: number,
  perpage: number,
  walk: boolean,
): Promise<ProductRow[]> {
  let q = filtered(db, filter, walk).selectAll('products');
  for (const clause of order) {
    const [key, dir] = clause.split('_') as [keyof typeof ORDER_COLUMNS, 'asc' | 'desc'];
    q = q.orderBy(`products.${ORDER_COLUMNS[key]}`, dir);
  }
  // Rows still tied after every clause: by id, in the direction of the last clause.
  q = q.orderBy('products.id', order[order.length - 1].endsWith('_desc') ? 'desc' : 'asc');
  if (order.length > 1 && walk && !isPostgres(db)) {
    // SQLite sorts the whole match for an ORDER BY of several keys, even with an index on the
    // first one (PostgreSQL sorts incrementally). The first key of the page's last row,
    // found on that index, bounds the rows that can be on the page: only they are sorted.
    const [key, dir] = order[0].split('_') as [keyof typeof ORDER_COLUMNS, 'asc' | 'desc'];
    const column = `products.${ORDER_COLUMNS[key]}` as const;
    const last = await filtered(db, filter, walk)
      .select(sql<string | number>`${sql.ref(column)}`.as('v'))
      .orderBy(column, dir)
      .orderBy('products.id', dir)
      .limit(1)
      .offset(offset + perpage - 1)
      .executeTakeFirst();
    if (last) q = q.where(column, dir === 'asc' ? '<=' : '>=', last.v);
  }
  if (walk || !sqlite(db)) return q.limit(perpage).offset(offset).execute();
  // SQLite, starting from the matches: it sorts them as whole rows (descriptions and all),
  // which cost 3 to 5 times the sort of their keys for a category of 3,000. Sort the ids,
  // then read the page's rows by primary key.
  const ids = (await q.clearSelect().select('products.id').limit(perpage).offset(offset).execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('products')
    .selectAll()
    .where('project_id', '=', filter.projectId)
    .where('id', 'in', ids)
    .execute();
  const at = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
}

const sqlite = (db: Kysely<Database>) => !isPostgres(db);

export async function findProduct(
  db: Kysely<Database>,
  projectId: string,
  ref: Ref,
  includeHidden: boolean,
): Promise<ProductRow | undefined> {
  let q = db.selectFrom('products').selectAll().where('project_id', '=', projectId);
  q = 'id' in ref ? q.where('id', '=', ref.id) : q.where('handle', '=', ref.handle);
  if (!includeHidden) q = q.where('show_in_store', '=', 1);
  return q.executeTakeFirst();
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
