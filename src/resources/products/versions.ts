import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.js';

// A product's own version, the key of its presented JSON in the record cache
// (src/cache/record-cache.ts): the seq of its row in the change log, the data_version of
// the last write that declared it changed (src/changes/record.ts). Every write of a product
// declares it (the write unit's change feed depends on that), in the write's transaction.
// A product no write declared since the change log began has no row: version 0, which it
// keeps until its first change gives it a row.

/** The version of the row of `products` in the same statement, by the change log's primary key. */
export const OWN_VERSION: RawBuilder<number | string | null> = sql`(select c.seq from changes c
  where c.project_id = products.project_id and c.type = 'product' and c.id = products.id)`;

/**
 * The version of each product of `ids` (0 for one without a row in the change log; none for
 * a product that is gone). Each is looked up by the whole primary key of the change log, so
 * that no planner can walk the project's entries instead: asked as `changes where type =
 * 'product' and id in (…)`, SQLite with sampled statistics (src/db/statistics.ts) took the
 * index on (project_id, type, seq, id), which covers the columns asked, and read every
 * product's entry of the project for each page (docs/PERFORMANCE.md).
 */
export async function productVersions(
  db: Kysely<Database>,
  projectId: string,
  ids: readonly number[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('products')
    .select(['id', OWN_VERSION.as('seq')])
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
  for (const r of rows) out.set(r.id, Number(r.seq ?? 0));
  return out;
}
