import { type Kysely, sql } from 'kysely';
import { autoId, autoIdType } from '../dialect.js';

// Webhooks (docs/API.md, "Webhooks"): an outbox written in the transaction of each change.
// - webhook_endpoints: where a project's events go, with the signing secret (kept as is: it
//   signs, so it cannot be hashed) and, during a roll, the previous one until its end.
// - webhook_messages: one event, its body as sent (the id is the webhook-id header).
// - webhook_deliveries: a message for one endpoint; pending, succeeded or failed; the next
//   attempt and, while a process delivers it, that process's lease (times in milliseconds).
// - webhook_attempts: every try, with the answer's status, duration and first 1 KiB.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', autoIdType(db), autoId(db))
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', 'bigint')
    .addColumn('disabled_at', 'bigint')
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_project').on('webhook_endpoints').columns(['project_id']).execute();

  await db.schema
    .createTable('webhook_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_messages_created').on('webhook_messages').columns(['created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', autoIdType(db), autoId(db))
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(sql`0`))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addUniqueConstraint('webhook_deliveries_message_endpoint', ['message_id', 'endpoint_id'])
    .execute();
  // The worker's claim: due pending deliveries, oldest first.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', autoIdType(db), autoId(db))
    .addColumn('delivery_id', 'bigint', (c) => c.notNull())
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_messages', 'webhook_endpoints'])
    await db.schema.dropTable(table).execute();
}
