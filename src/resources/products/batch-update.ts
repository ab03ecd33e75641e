import type { Kysely } from 'kysely';
import { forUpdate } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { ApiError, type ErrorDetail } from '../../errors.js';
import { etagOf } from '../../http/etag.js';
import { ifMatchHits } from '../../http/if-match.js';
import { writeProject } from '../../writes/write-project.js';
import type { ProductRow } from './present.js';
import { presentProduct } from './present.js';
import { productJson } from './presented.js';
import { categoryIdsOf } from './repository.js';
import type { Product, ProductBatchItem, ProductUpdate } from './schemas.js';
import { ProductWriter, columnsToSet } from './update.js';

// `PATCH …/products/` (docs/API.md, "Changing many products at once"): up to 1,000 partial
// updates in one write of the project, all or nothing. Each item is judged as the single
// update judges its body (columnsToSet, on the locked row), and every failing item is named
// by its place (`products[3].price`) before anything is written.

type Failure = ErrorDetail & { status: 400 | 404 | 409 };

/** The updated products in the request's order; an ApiError naming every failing item. */
export async function updateProducts(
  storage: { db: Kysely<Database> },
  project: { id: string; currency: string },
  items: readonly ProductBatchItem[],
): Promise<Product[]> {
  const failures = items.flatMap(shapeFailures);
  if (failures.length) throw batchError(failures, items.length);
  const write = await writeProject(storage, project.id, async (ctx) => {
    const found = await lockRows(ctx.db, project.id, items);
    const sets = await judge(ctx.db, project, items, found);
    const writer = new ProductWriter(ctx, Math.floor(Date.now() / 1000));
    const updated: ProductRow[] = [];
    for (let i = 0; i < items.length; i++) updated.push(await writer.apply(found[i]!, sets[i]));
    await writer.finish();
    const shown = await categoryIdsOf(
      ctx.db,
      project.id,
      updated.map((r) => r.id),
    );
    return updated.map((row) => presentProduct(row, project.currency, shown.get(row.id) ?? []));
  });
  return write.value;
}

/**
 * Each item judged against its locked row, as the single update judges its body: the
 * columns each sets, or an ApiError naming every failing item (nothing is written then).
 */
async function judge(
  db: Kysely<Database>,
  project: { id: string; currency: string },
  items: readonly ProductBatchItem[],
  found: readonly (ProductRow | undefined)[],
): Promise<Partial<ProductRow>[]> {
  const checked = items.flatMap((item, i) => (item.if_match !== undefined && found[i] ? [found[i].id] : []));
  const categories = await categoryIdsOf(db, project.id, checked);
  const firstOf = new Map<number, number>();
  const sets: Partial<ProductRow>[] = [];
  const problems: Failure[] = [];
  items.forEach((item, i) => {
    const row = found[i];
    const place = `products[${i}]`;
    if (!row) return problems.push(notFound(item, place));
    const first = firstOf.get(row.id);
    if (first !== undefined) return problems.push(duplicate(item, place, first));
    firstOf.set(row.id, i);
    if (item.if_match !== undefined) {
      const etag = etagOf(productJson(row, project.currency, categories.get(row.id) ?? []));
      if (!ifMatchHits(item.if_match, etag)) return problems.push(stale(place));
    }
    try {
      sets[i] = columnsToSet(row, changesOf(item));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      for (const d of error.details ?? [])
        problems.push({ status: 400, field: `${place}.${d.field}`, message: d.message });
    }
  });
  if (problems.length) throw batchError(problems, items.length);
  return sets;
}

/** What the body alone says is wrong with an item: no product named, or nothing to change. */
function shapeFailures(item: ProductBatchItem, i: number): Failure[] {
  const place = `products[${i}]`;
  const named = (item.id !== undefined ? 1 : 0) + (item.handle !== undefined ? 1 : 0);
  if (named !== 1) {
    const message = named ? 'give id or handle, not both' : 'must name the product: give id or handle';
    return [{ status: 400, field: `${place}.${named ? 'handle' : 'id'}`, message }];
  }
  if (Object.keys(changesOf(item)).length === 0)
    return [{ status: 400, field: place, message: 'must name at least one field to change' }];
  return [];
}

/** The item's fields of the single update (ProductUpdate). */
function changesOf(item: ProductBatchItem): ProductUpdate {
  const { id: _id, handle: _handle, if_match: _ifMatch, ...changes } = item;
  return changes;
}

/** The row each item names (undefined: none), locked for this write (PostgreSQL; SQLite has one writer). */
async function lockRows(
  db: Kysely<Database>,
  projectId: string,
  items: readonly ProductBatchItem[],
): Promise<(ProductRow | undefined)[]> {
  const ids = items.flatMap((item) => (item.id !== undefined ? [item.id] : []));
  const handles = items.flatMap((item) => (item.handle !== undefined ? [item.handle] : []));
  const q = db
    .selectFrom('products')
    .selectAll()
    .where('project_id', '=', projectId)
    .where((eb) => {
      const named = [];
      if (ids.length) named.push(eb('id', 'in', ids));
      if (handles.length) named.push(eb('handle', 'in', handles));
      return eb.or(named);
    });
  const rows = await forUpdate(db, q).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const byHandle = new Map(rows.map((r) => [r.handle, r]));
  return items.map((item) => (item.id !== undefined ? byId.get(item.id) : byHandle.get(item.handle!)));
}

function refField(item: ProductBatchItem, place: string): string {
  return `${place}.${item.id !== undefined ? 'id' : 'handle'}`;
}

function notFound(item: ProductBatchItem, place: string): Failure {
  return { status: 404, field: refField(item, place), message: 'names no product of this project' };
}

function duplicate(item: ProductBatchItem, place: string, first: number): Failure {
  return { status: 400, field: refField(item, place), message: `names the same product as products[${first}]` };
}

function stale(place: string): Failure {
  return {
    status: 409,
    field: `${place}.if_match`,
    message: "is not the product's current ETag: it changed since it was read; fetch it again",
  };
}

/**
 * One error for the whole batch. Its status is the most telling of its items': 400 (the
 * request must change) before 404 (a product is gone) before 409 (read again and retry).
 */
function batchError(failures: Failure[], total: number): ApiError {
  const status = ([400, 404, 409] as const).find((s) => failures.some((f) => f.status === s))!;
  const places = new Set(failures.map((f) => /^products\[\d+\]/.exec(f.field)?.[0])).size;
  const first = failures.find((f) => f.status === status)!;
  return new ApiError(
    status,
    `${places} of ${total} products cannot be updated, so none was: ${first.field} ${first.message}`,
    failures.map(({ field, message }) => ({ field, message })),
  );
}
