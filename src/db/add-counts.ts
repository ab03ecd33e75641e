import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

/** A change to one kept count row: its key and the numbers to add. */
export interface CountChange<K> {
  key: K;
  visible: number;
  total: number;
}

/**
 * Adds changes to kept-count rows `(project_id, <key>, visible, total)` (product_counts,
 * search_grams) in one statement: the rows travel as arrays (PostgreSQL) or one JSON text
 * (SQLite), so any number fits; a row not there yet is created.
 */
export async function addCounts<K extends number | string>(
  db: Kysely<any>,
  table: 'product_counts' | 'search_grams',
  keyColumn: 'category_id' | 'gram',
  projectId: string,
  changes: CountChange<K>[],
): Promise<void> {
  if (changes.length === 0) return;
  const keyType = sql.raw(keyColumn === 'gram' ? 'text' : 'bigint');
  const source = isPostgres(db)
    ? sql`select ${projectId}::text, k, v, t from unnest(${changes.map((c) => c.key)}::${keyType}[], ${changes.map((c) => c.visible)}::bigint[], ${changes.map((c) => c.total)}::bigint[]) as d(k, v, t)`
    : sql`select ${projectId}, value ->> 0, value ->> 1, value ->> 2 from json_each(${JSON.stringify(changes.map((c) => [c.key, c.visible, c.total]))}) where true`;
  await sql`insert into ${sql.table(table)} (project_id, ${sql.ref(keyColumn)}, visible, total) ${source}
    on conflict (project_id, ${sql.ref(keyColumn)}) do update
    set visible = ${sql.ref(`${table}.visible`)} + excluded.visible, total = ${sql.ref(`${table}.total`)} + excluded.total`.execute(
    db,
  );
}
