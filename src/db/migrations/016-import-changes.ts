import { type Kysely, sql } from 'kysely';

// What an import changes and what looks damaged in its file (docs/API.md, "What an import
// reports"), kept with its job; and how a CSV's rows apply: `merge` (only the columns it has)
// or `replace` (whole records).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('import_jobs')
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('merge'))
    .execute();
  await db.schema.alterTable('import_jobs').addColumn('changes', 'text').execute();
  await db.schema.alterTable('import_jobs').addColumn('warnings', 'text').execute();
  await db.schema
    .alterTable('import_jobs')
    .addColumn('warnings_total', 'integer', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['warnings_total', 'warnings', 'changes', 'mode'])
    await db.schema.alterTable('import_jobs').dropColumn(column).execute();
}
