import { type Kysely, sql } from 'kysely';

// The version of what the products lists are made of (docs/PERFORMANCE.md, "Caches, and how
// each is invalidated"): the data_version of the last write that changed a product in a way
// that can move it in or out of a list or within one (its name, price, visibility,
// categories, sort key; a new or deleted product), set by the write unit
// (src/writes/type-versions.ts). A stock change leaves it: no filter or order of the API
// reads stock, so the lists' totals stay valid across it. Starts at products_version.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('product_lists_version', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
  await db
    .updateTable('projects')
    .set({ product_lists_version: sql`products_version` })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('product_lists_version').execute();
}
