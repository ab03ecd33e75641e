import type { Kysely } from 'kysely';

// Idempotency-Key records: the first answer to a POST, kept for a day so that a retried
// request gets the same answer instead of a second write. They live in the database, not
// in memory, so that a retry reaching another process (or a restarted one) is recognised.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('key_id', 'bigint', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    // null while the first request is still being answered
    .addColumn('status', 'integer')
    .addColumn('body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['project_id', 'key_id', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
