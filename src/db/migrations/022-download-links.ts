import type { Kysely } from 'kysely';

// Download links of exports (docs/API.md, "Exports"; src/exports/download-links.ts): a
// browser saves an export with its own download, streamed to disk, by following a URL that
// carries a one-time token instead of the Authorization header. A row per link, made with a
// key (whose scopes were checked then) for one file and one exact query; deleted when it is
// used, and purged when a later link is made after it expired.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('download_links')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('key_id', 'integer', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    // Keyed by project first, like every table of a project's data (docs/DEPLOY.md).
    .addPrimaryKeyConstraint('download_links_pkey', ['project_id', 'token_hash'])
    .execute();
  await db.schema.createIndex('download_links_expiry').on('download_links').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('download_links').execute();
}
