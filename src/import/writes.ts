import type { Kysely } from 'kysely';
import { bulkInsert, bulkUpsert } from '../db/dialect.js';
import type { Database } from '../db/schema.js';

// The import's batch writes, for the rows of any resource (src/resources/*/rows.ts): on
// PostgreSQL through COPY (src/db/copy-rows.ts), on SQLite as multi-row statements.

type Row = Record<string, unknown>;

/** Plain rows of a record's parts (links, items, subscriptions). */
export async function insert(trx: Kysely<Database>, table: keyof Database, rows: Row[]): Promise<void> {
  return bulkInsert(trx, table, rows);
}

/** INSERT … ON CONFLICT (project_id, id) DO UPDATE: a record whose id exists replaces it whole. */
export async function upsert(trx: Kysely<Database>, table: keyof Database, rows: Row[]): Promise<void> {
  return bulkUpsert(trx, table, rows, ['project_id', 'id']);
}

/** Deletes the parts of the records `ids` (rows whose `parent` column names one of them). */
export async function deleteParts(
  trx: Kysely<Database>,
  table: keyof Database,
  parent: string,
  projectId: string,
  ids: number[],
): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parts of any record table
  await (trx as Kysely<any>).deleteFrom(table).where('project_id', '=', projectId).where(parent, 'in', ids).execute();
}
