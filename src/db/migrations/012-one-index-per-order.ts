import type { Kysely } from 'kysely';

// One index per ordering instead of two. 001 made `products_by_<key>` (project_id,
// show_in_store, key, id) for the public list and 002 `products_all_by_<key>` (project_id,
// key, id) for fetch_hidden=true. Every write of a product paid for both: at a million
// products the four led by show_in_store cost 20 s of a SQLite import's 68 s of inserts (and
// about a fifth of PostgreSQL's). Now one index per key, (project_id, key, id, show_in_store):
// a list walks it in order for either audience, and the trailing show_in_store lets a public
// list skip hidden products from the index alone, without reading their rows.

const KEYS = ['created_at', 'name_key', 'price', 'custom_sort'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const key of KEYS) {
    await db.schema.dropIndex(`products_by_${key}`).execute();
    await db.schema.dropIndex(`products_all_by_${key}`).execute();
    await db.schema
      .createIndex(`products_by_${key}`)
      .on('products')
      .columns(['project_id', key, 'id', 'show_in_store'])
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const key of KEYS) {
    await db.schema.dropIndex(`products_by_${key}`).execute();
    await db.schema
      .createIndex(`products_by_${key}`)
      .on('products')
      .columns(['project_id', 'show_in_store', key, 'id'])
      .execute();
    await db.schema.createIndex(`products_all_by_${key}`).on('products').columns(['project_id', key, 'id']).execute();
  }
}
