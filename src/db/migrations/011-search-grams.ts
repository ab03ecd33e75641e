import type { Kysely } from 'kysely';
import { recountGrams } from '../../resources/products/grams.js';
import { byteCollated } from '../dialect.js';
import type { Database } from '../schema.js';

// Kept search-gram counts (src/resources/products/grams.ts): per project and gram of 1 to 3
// characters, how many products (visible ones, and all) hold it in their search_text, so that
// the exact total of a search for such a term is one primary-key read. Filled here from the
// stored products, project by project; every write of products keeps them from then on.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('search_grams')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('gram', 'text', byteCollated(db))
    .addColumn('visible', 'bigint', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_grams_pk', ['project_id', 'gram'])
    .execute();
  const projects = await db.selectFrom('projects').select('id').execute();
  for (const { id } of projects as { id: string }[]) await recountGrams(db as Kysely<Database>, id);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('search_grams').execute();
}
