import type { Kysely } from 'kysely';
import { isPostgres } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { unnestInsert } from '../db/unnest-insert.js';

// The import's batch writes, for the rows of any resource (src/resources/*/rows.ts): on
// PostgreSQL through unnest-insert.ts, on SQLite as multi-row statements.

type Row = Record<string, unknown>;

/** Plain rows of a record's parts (links, items, subscriptions). */
export async function insert(trx: Kysely<Database>, table: keyof Database, rows: Row[]): Promise<void> {
  if (isPostgres(trx)) return unnestInsert(trx, table, rows);
  // SQLite: within its 32,766 parameters (7 columns at most).
  for (let i = 0; i < rows.length; i += 4000)
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of any record table
    await (trx as Kysely<any>)
      .insertInto(table)
      .values(rows.slice(i, i + 4000))
      .execute();
}

/** INSERT … ON CONFLICT (project_id, id) DO UPDATE: a record whose id exists replaces it whole. */
export async function upsert(trx: Kysely<Database>, table: keyof Database, rows: Row[]): Promise<void> {
  if (isPostgres(trx)) return unnestInsert(trx, table, rows, ['project_id', 'id']);
  const columns = Object.keys(rows[0]).filter((c) => c !== 'project_id' && c !== 'id');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of any record table
  await (trx as Kysely<any>)
    .insertInto(table)
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'id'])
        .doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)]))),
    )
    .execute();
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
