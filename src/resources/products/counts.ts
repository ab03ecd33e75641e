import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';

// Kept product counts (migration 009): per project, the number of products and of visible
// ones, in all (category_id 0) and directly in each category. A list's exact total is then
// one primary-key read, never a count of every match on the request's path.
//
// Every write of products keeps them in its own transaction, set-based per batch: the stored
// records' contribution is taken out before they are rewritten (or deleted), and added back
// once they and their category links are written. The import and generate reach this
// through the products descriptor (`derived`), never by name; deleting products
// (delete.ts) takes them out first, and deleting categories (categories/delete.ts) forgets
// theirs; a product update over HTTP changes neither visibility nor categories. test/products/kept-counts.test.ts compares them
// with a fresh count(*) after random imports.

/** category_id of the row counting every product of the project. */
export const ALL_PRODUCTS = 0;

/** Adds (`sign` 1) or takes out (-1) the products `ids` as they are stored now. */
async function tally(db: Kysely<Database>, projectId: string, ids: number[], sign: 1 | -1): Promise<void> {
  if (ids.length === 0) return;
  const add = (q: ReturnType<typeof insertCounts>) =>
    q
      .onConflict((oc) =>
        oc.columns(['project_id', 'category_id']).doUpdateSet((eb) => ({
          visible: eb('product_counts.visible', '+', eb.ref('excluded.visible')),
          total: eb('product_counts.total', '+', eb.ref('excluded.total')),
        })),
      )
      .execute();
  // GROUP BY: records not stored (yet) give no row, rather than a row of zeros.
  await add(
    insertCounts(db).expression(
      db
        .selectFrom('products as p')
        .select([
          'p.project_id',
          sql<number>`${ALL_PRODUCTS}`.as('category_id'),
          sql<number>`${sign} * sum(p.show_in_store)`.as('visible'),
          sql<number>`${sign} * count(*)`.as('total'),
        ])
        .where('p.project_id', '=', projectId)
        .where('p.id', 'in', ids)
        .groupBy('p.project_id'),
    ),
  );
  await add(
    insertCounts(db).expression(
      db
        .selectFrom('product_categories as pc')
        .innerJoin('products as p', (j) =>
          j.onRef('p.project_id', '=', 'pc.project_id').onRef('p.id', '=', 'pc.product_id'),
        )
        .select([
          'pc.project_id',
          'pc.category_id',
          sql<number>`${sign} * sum(p.show_in_store)`.as('visible'),
          sql<number>`${sign} * count(*)`.as('total'),
        ])
        .where('pc.project_id', '=', projectId)
        .where('pc.product_id', 'in', ids)
        .groupBy(['pc.project_id', 'pc.category_id']),
    ),
  );
}

function insertCounts(db: Kysely<Database>) {
  return db.insertInto('product_counts').columns(['project_id', 'category_id', 'visible', 'total']);
}

/** Before the stored products `ids` are rewritten or deleted: their part of the counts goes. */
export function uncountProducts(db: Kysely<Database>, projectId: string, ids: number[]): Promise<void> {
  return tally(db, projectId, ids, -1);
}

/** Once the products `ids` and their category links are written: their part is added. */
export function countProducts(db: Kysely<Database>, projectId: string, ids: number[]): Promise<void> {
  return tally(db, projectId, ids, 1);
}

/** Once the categories `ids` are deleted with every link to them: no product is in them. */
export async function forgetCategoryCounts(db: Kysely<Database>, projectId: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('product_counts').where('project_id', '=', projectId).where('category_id', 'in', ids).execute();
}

/** The exact number of products of the project (visible ones unless `includeHidden`), in all or in a category. */
export async function keptCount(
  db: Kysely<Database>,
  projectId: string,
  categoryId: number | undefined,
  includeHidden: boolean,
): Promise<number> {
  const row = await db
    .selectFrom('product_counts')
    .select(['visible', 'total'])
    .where('project_id', '=', projectId)
    .where('category_id', '=', categoryId ?? ALL_PRODUCTS)
    .executeTakeFirst();
  return Number((includeHidden ? row?.total : row?.visible) ?? 0);
}
