import type { Kysely, Selectable } from 'kysely';
import type { Database } from './schema.js';

/**
 * The next `limit` rows of a project's table (keyed by project_id, id) in id order, those with an id above `after`:
 * how the export reads a table of any size in bounded memory, on the primary key.
 */
export async function pageById<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  projectId: string,
  after: number,
  limit: number,
): Promise<Selectable<Database[T]>[]> {
  const rows = await db
    .selectFrom(table as 'products')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows as unknown as Selectable<Database[T]>[];
}

/**
 * A page of records with their parts: the rows by id, then the parts of all of them in one
 * query (`partsOf`, e.g. a repository's itemsOf), each record presented with its own.
 */
export async function pageWithParts<T extends keyof Database, P, R>(
  db: Kysely<Database>,
  table: T,
  projectId: string,
  after: number,
  limit: number,
  partsOf: (db: Kysely<Database>, projectId: string, ids: number[]) => Promise<Map<number, P[]>>,
  present: (row: Selectable<Database[T]>, parts: P[]) => R,
): Promise<R[]> {
  const rows = await pageById(db, table, projectId, after, limit);
  const parts = await partsOf(
    db,
    projectId,
    rows.map((r) => (r as { id: number }).id),
  );
  return rows.map((r) => present(r, parts.get((r as { id: number }).id) ?? []));
}
