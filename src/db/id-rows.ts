import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database } from './schema.js';

/**
 * A list of ids as a table of one column `id`, for one set-based statement over many ids
 * (`insert … select … from <this>`): the ids travel as one array parameter on PostgreSQL
 * (`unnest`), as one JSON text on SQLite (`json_each`), so a statement has two parameters
 * whatever the number of ids.
 */
export function idRows(db: Kysely<Database>, ids: readonly number[]): RawBuilder<unknown> {
  return isPostgres(db)
    ? sql`unnest(${ids}::bigint[]) as ids(id)`
    : sql`(select value as id from json_each(${JSON.stringify(ids)}))`;
}
