import { type Kysely, sql } from 'kysely';

// Kept product counts (src/resources/products/counts.ts): per project, how many products and
// how many visible ones, in all (category_id 0) and directly in each category, so that a
// list's exact total is one primary-key read. Filled here from the stored rows; every write
// of products keeps them from then on, in its own transaction.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('product_counts')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('category_id', 'bigint', (c) => c.notNull())
    .addColumn('visible', 'bigint', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('product_counts_pk', ['project_id', 'category_id'])
    .execute();
  await sql`insert into product_counts (project_id, category_id, visible, total)
    select project_id, 0, sum(show_in_store), count(*) from products group by project_id`.execute(db);
  await sql`insert into product_counts (project_id, category_id, visible, total)
    select pc.project_id, pc.category_id, sum(p.show_in_store), count(*)
    from product_categories pc join products p on p.project_id = pc.project_id and p.id = pc.product_id
    group by pc.project_id, pc.category_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('product_counts').execute();
}
