import { type Kysely, sql } from 'kysely';

// A version per record type and project (docs/PERFORMANCE.md, "Caches, and how each is
// invalidated"): each column holds the data_version of the last write that changed records
// of that type, set by the write unit (src/writes/type-versions.ts) in the write's own
// transaction. Read with the project on every request, they key the caches by what each
// answer shows, so that an order update leaves the catalog's cached answers valid.
// data_version stays the change feed's order. A project of before this migration starts
// every type at its data_version: older entries of its caches are never asked for again.

export const TYPE_VERSION_COLUMNS = [
  'products_version',
  'categories_version',
  'plans_version',
  'users_version',
  'orders_version',
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of TYPE_VERSION_COLUMNS) {
    await db.schema
      .alterTable('projects')
      .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(sql`0`))
      .execute();
  }
  await db
    .updateTable('projects')
    .set(Object.fromEntries(TYPE_VERSION_COLUMNS.map((c) => [c, sql`data_version`])))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of TYPE_VERSION_COLUMNS) await db.schema.alterTable('projects').dropColumn(column).execute();
}
