import { type Kysely, sql } from 'kysely';
import { autoId, autoIdType } from '../dialect.js';

// Imports over HTTP are jobs (docs/API.md, "Imports"; src/imports/). One row per upload:
// its state, what it found and, while a process runs it, that process's lease. The row is
// also the queue: a project's jobs run one at a time, in id order, claimed by whichever
// server process gets there first (src/imports/store.ts). The uploaded file itself lies in
// a spool file on the disk of the process that received it (spool_host, spool_path) until
// the job ends.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('id', autoIdType(db), autoId(db))
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('dry_run', 'integer', (c) => c.notNull().defaultTo(sql`0`))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('records_read', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
    .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(sql`0`))
    .addColumn('counts', 'text')
    .addColumn('errors', 'text')
    .addColumn('errors_total', 'integer', (c) => c.notNull().defaultTo(sql`0`))
    .addColumn('cursor_before', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('spool_host', 'text', (c) => c.notNull())
    .addColumn('spool_path', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
  // A project's list (newest first) and its queue (the oldest unfinished job).
  await db.schema.createIndex('import_jobs_project').on('import_jobs').columns(['project_id', 'id']).execute();
  // The runners' claim and the restart's sweep: jobs by state.
  await db.schema.createIndex('import_jobs_status').on('import_jobs').columns(['status', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_jobs').execute();
}
