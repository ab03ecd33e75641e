import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import { createSearchIndex } from '../search-index.js';

// What the benchmark (bench/, docs/PERFORMANCE.md) showed a catalog of a million products
// needs beyond 001:
// - projects.data_version: bumped in the same transaction as every write to a project's
//   data, and read with the project on every request, so in-process caches (answers,
//   counts) are keyed by it and can never serve what another process has since changed.
// - a trigram index for `search` (a substring of search_text), see search-index.ts.
// - orderings over every product (fetch_hidden=true) and the common two-filter orders list.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('data_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await createSearchIndex(db);

  // 001's indexes lead with show_in_store for the public list; fetch_hidden=true lists all
  // products and would otherwise sort the whole catalog.
  for (const key of ['created_at', 'name_key', 'price', 'custom_sort']) {
    await db.schema.createIndex(`products_all_by_${key}`).on('products').columns(['project_id', key, 'id']).execute();
  }

  // payment and fulfillment together: "paid and shipped", the back office's daily list.
  await db.schema
    .createIndex('orders_by_payment_fulfillment')
    .on('orders')
    .columns(['project_id', 'payment_status', 'fulfillment_status', 'created_at', 'id'])
    .execute();

  if (isPostgres(db)) await sql`analyze`.execute(db);
}
