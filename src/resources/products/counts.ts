import type { Kysely } from 'kysely';
import { addCounts } from '../../db/add-counts.js';
import type { Database } from '../../db/schema.js';

// Kept product counts (migration 009): per project, the number of products and of visible
// ones, in all (category_id 0) and directly in each category. A list's exact total is then
// one primary-key read, never a count of every match on the request's path.
//
// Every write of products keeps them in its own transaction through the products' tally
// (tally.ts), which adds up in memory what its batches take out and put back and writes the
// sums once (`writeCountDeltas`); deleting categories forgets theirs. A product update over
// HTTP changes neither visibility nor categories. test/products/kept-counts.test.ts compares
// them with a fresh count(*) after random imports.

/** category_id of the row counting every product of the project. */
export const ALL_PRODUCTS = 0;

/** Changes to the kept counts, by category (ALL_PRODUCTS: every product). */
export class CountDeltas {
  private readonly byCategory = new Map<number, { visible: number; total: number }>();

  /** One product added (`sign` 1) or taken out (-1), with its categories. */
  add(categoryIds: readonly number[], visible: boolean, sign: 1 | -1): void {
    this.bump(ALL_PRODUCTS, visible, sign);
    for (const id of categoryIds) this.bump(id, visible, sign);
  }

  get changed(): { category_id: number; visible: number; total: number }[] {
    return [...this.byCategory]
      .filter(([, d]) => d.total !== 0 || d.visible !== 0)
      .map(([category_id, d]) => ({ category_id, ...d }));
  }

  private bump(categoryId: number, visible: boolean, sign: 1 | -1): void {
    let d = this.byCategory.get(categoryId);
    if (!d) this.byCategory.set(categoryId, (d = { visible: 0, total: 0 }));
    d.total += sign;
    if (visible) d.visible += sign;
  }
}

/** Adds the tallied changes to the kept counts, in one statement. */
export function writeCountDeltas(db: Kysely<Database>, projectId: string, deltas: CountDeltas): Promise<void> {
  const changes = deltas.changed.map(({ category_id, visible, total }) => ({ key: category_id, visible, total }));
  return addCounts(db, 'product_counts', 'category_id', projectId, changes);
}

/** Once the categories `ids` are deleted with every link to them: no product is in them. */
export async function forgetCategoryCounts(db: Kysely<Database>, projectId: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('product_counts').where('project_id', '=', projectId).where('category_id', 'in', ids).execute();
}

/** The exact number of products of the project (visible ones unless `includeHidden`), in all or in a category. */
export async function keptCount(
  db: Kysely<Database>,
  projectId: string,
  categoryId: number | undefined,
  includeHidden: boolean,
): Promise<number> {
  const row = await db
    .selectFrom('product_counts')
    .select(['visible', 'total'])
    .where('project_id', '=', projectId)
    .where('category_id', '=', categoryId ?? ALL_PRODUCTS)
    .executeTakeFirst();
  return Number((includeHidden ? row?.total : row?.visible) ?? 0);
}
