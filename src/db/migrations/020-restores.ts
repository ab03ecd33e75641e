import type { Kysely } from 'kysely';

// Each restore of a backup into this database (src/db/restore.ts), per project: the project's
// data_version in the backup (`version_before`) and the version the restore moved it to
// (`version_after`, RESTORE_VERSION_GAP higher). The versions strictly between were, or may have
// been, given out by the lost database after the backup was taken: a change-feed cursor there
// is 410 (src/changes/read.ts), and since the restored database never hands them out again, no
// ETag, Storefront-Version or cache key of the lost history can match a new one. Rows are
// copied by the next backup with everything else, so gaps of earlier restores stay known.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('restores')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('version_before', 'bigint', (c) => c.notNull())
    .addColumn('version_after', 'bigint', (c) => c.notNull())
    .addColumn('restored_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('restores_pk', ['project_id', 'version_after'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('restores').execute();
}
