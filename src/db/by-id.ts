import type { Kysely, Selectable } from 'kysely';
import type { Database } from './schema.js';

/** The tables whose rows are keyed by (project_id, id). */
type ProjectTable = {
  [T in keyof Database]: Database[T] extends { project_id: unknown; id: unknown } ? T : never;
}[keyof Database];

/** One row of a project's table by its id (a record, a key, an import job), if there is one. */
export async function rowById<T extends ProjectTable>(
  db: Kysely<Database>,
  table: T,
  projectId: string,
  id: number,
): Promise<Selectable<Database[T]> | undefined> {
  const row = await db
    .selectFrom(table as 'orders')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row as Selectable<Database[T]> | undefined;
}

/**
 * The ids of the next `limit` rows of a project's table (keyed by project_id, id), those above
 * `after`, ascending: how the export walks a table of any size in bounded memory, on the
 * primary key.
 */
export async function idsAfter(
  db: Kysely<Database>,
  table: 'categories' | 'products' | 'plans' | 'users' | 'orders',
  projectId: string,
  after: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom(table as 'products')
    .select('id')
    .where('project_id', '=', projectId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.id));
}

/**
 * Records by id with their parts: the rows, then the parts of all of them in one query
 * (`partsOf`, e.g. a repository's itemsOf), each record presented with its own.
 */
export async function withParts<T extends 'users' | 'orders', P, R>(
  db: Kysely<Database>,
  table: T,
  projectId: string,
  ids: number[],
  partsOf: (db: Kysely<Database>, projectId: string, ids: number[]) => Promise<Map<number, P[]>>,
  present: (row: Selectable<Database[T]>, parts: P[]) => R,
): Promise<Map<number, R>> {
  const rows = (await db
    .selectFrom(table as 'orders')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute()) as unknown as (Selectable<Database[T]> & { id: number })[];
  const parts = await partsOf(
    db,
    projectId,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, present(r, parts.get(r.id) ?? [])]));
}
