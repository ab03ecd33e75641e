import { type Kysely, sql } from 'kysely';
import { byteCollated } from '../dialect.js';

// The change log behind GET /v2/projects/<project_id>/changes/ (src/changes/, docs/API.md
// "The change feed"):
// - changes: one row per record that ever changed, (project_id, type, id). A later change
//   of the same record replaces its row, so superseded entries compact themselves and the
//   log holds at most one row per record plus the deletions kept for the retention time.
//   `seq` is the project's data_version of the transaction that made the change (ordering:
//   src/changes/record.ts); `action` is 'upsert' or 'delete'.
// - projects.changes_floor: the highest seq of a deletion purged after
//   CHANGES_RETENTION_DAYS; a cursor below it may have missed that deletion (410 gone).
// - order_items by product and categories by parent: what deleting a product (its order
//   items lose the product) and a category (its subtree) look up.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('changes')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', byteCollated(db))
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('changes_pk', ['project_id', 'type', 'id'])
    .execute();
  // A page of the feed reads each asked type in commit order; the whole log in commit
  // order (every type) is for readers such as webhook delivery.
  await db.schema
    .createIndex('changes_by_type_seq')
    .on('changes')
    .columns(['project_id', 'type', 'seq', 'id'])
    .execute();
  await db.schema.createIndex('changes_by_seq').on('changes').columns(['project_id', 'seq']).execute();
  // The deletions alone, by age: what the retention purge looks for.
  await db.schema
    .createIndex('changes_deletions_by_age')
    .on('changes')
    .columns(['project_id', 'changed_at'])
    .where(sql.ref('action'), '=', 'delete')
    .execute();

  await db.schema
    .alterTable('projects')
    .addColumn('changes_floor', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
    .execute();

  await db.schema
    .createIndex('order_items_by_product')
    .on('order_items')
    .columns(['project_id', 'product_id'])
    .execute();
  await db.schema.createIndex('categories_by_parent').on('categories').columns(['project_id', 'parent_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('categories_by_parent').execute();
  await db.schema.dropIndex('order_items_by_product').execute();
  await db.schema.alterTable('projects').dropColumn('changes_floor').execute();
  await db.schema.dropTable('changes').execute();
}
