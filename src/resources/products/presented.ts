import type { Kysely } from 'kysely';
import type { RecordCache, RecordScope } from '../../cache/record-cache.js';
import type { Database } from '../../db/schema.js';
import { SHOWN_COLUMNS, type ShownProductRow, presentProduct } from './present.js';
import { categoryIdsOf } from './repository.js';
import { productVersions } from './versions.js';

// Products as answers send them, assembled from the record cache (src/cache/record-cache.ts):
// the ids come from the list's own query, their versions from the change log, and only the
// products the cache misses are read and presented. The versions are read before the rows,
// so that a row presented here is never older than the version it is kept under (on
// PostgreSQL each statement sees every commit before it; on SQLite the list's statements
// share one snapshot).

/**
 * The presented JSON of each product of `ids`, in that order; one gone meanwhile is left out.
 * `known`: their versions, when the statement that chose the ids read them too.
 */
export async function presentedProducts(
  db: Kysely<Database>,
  cache: RecordCache,
  project: RecordScope,
  ids: readonly number[],
  known?: ReadonlyMap<number, number>,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const versions = known ?? (await productVersions(db, project.id, ids));
  return cache.assemble(
    project,
    ids.map((id) => ({ id, version: versions.get(id) ?? 0 })),
    async (missing) => {
      const rows = await rowsByIds(
        db,
        project.id,
        missing.map((r) => r.id),
      );
      const categories = await categoryIdsOf(
        db,
        project.id,
        rows.map((r) => r.id),
      );
      return new Map(rows.map((r) => [r.id, productJson(r, project.currency, categories.get(r.id) ?? [])]));
    },
  );
}

/** A product's JSON as the API sends it (the Product schema's fields, images as url and alt). */
export function productJson(row: ShownProductRow, currency: string, categoryIds: number[]): string {
  const product = presentProduct(row, currency, categoryIds);
  product.images = product.images.map(({ url, alt }) => ({ url, alt }));
  return JSON.stringify(product);
}

/** A page of products as the list schema has it, from their JSON. */
export function pageJson(products: readonly string[], meta: object): string {
  return `{"data":[${products.join(',')}],"meta":${JSON.stringify(meta)}}`;
}

/** The rows of `ids`, whatever their visibility (the caller's query chose them). */
async function rowsByIds(db: Kysely<Database>, projectId: string, ids: number[]): Promise<ShownProductRow[]> {
  return db
    .selectFrom('products')
    .select(SHOWN_COLUMNS)
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
}
