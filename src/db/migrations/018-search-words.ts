import { type Kysely, sql } from 'kysely';
import { reindexWords } from '../../resources/products/search/postings.js';
import { byteCollated, isPostgres } from '../dialect.js';
import type { Database } from '../schema.js';

// Shopper search `q` (src/resources/products/search/): each project's vocabulary of folded,
// diacritics-stripped words with the data_version that first added it (the typo candidates
// are found in memory over it, refreshed by `seq`), and one posting per (word, product) with
// the field it occurs in (0: the name, 1: description or SKU). Filled here from the stored
// products; every write of products keeps them from then on, in its own transaction.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('search_words')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('word', 'text', byteCollated(db))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_words_pk', ['project_id', 'word'])
    .execute();
  await db.schema.createIndex('search_words_seq').on('search_words').columns(['project_id', 'seq']).execute();
  await db.schema
    .createTable('search_postings')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('word', 'text', byteCollated(db))
    .addColumn('product_id', 'bigint', (c) => c.notNull())
    .addColumn('field', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_postings_pk', ['project_id', 'word', 'product_id'])
    // SQLite: the rows are the primary key's b-tree (no rowid table beside it), half the disk.
    .modifyEnd(isPostgres(db) ? sql`` : sql`without rowid`)
    .execute();
  const projects = await db.selectFrom('projects').select('id').execute();
  for (const { id } of projects as { id: string }[]) await reindexWords(db as Kysely<Database>, id);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('search_postings').execute();
  await db.schema.dropTable('search_words').execute();
}
