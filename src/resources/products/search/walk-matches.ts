import type { Kysely } from 'kysely';
import { selectRows } from '../../../db/array-rows.js';
import type { Database } from '../../../db/schema.js';
import { categoryTree, descendantsIn } from '../filters.js';
import type { ProductFilter } from '../list.js';
import { SHOWN, SHOWN_COLUMNS } from '../present.js';
import { categoryIdsOf } from '../repository.js';
import type { OrderClause } from '../schemas.js';
import type { ProductPage } from '../walk.js';
import { matchIds } from './match-set.js';
import type { ShopSearch } from './page.js';

/**
 * Every product a shopper search matches, in the list's order (relevance first with `q`),
 * page after page, for the export (CONTRACT 14: an export takes its list's filters and
 * `order`). The match set's ids are read once, in order, as the list reads them
 * (match-set.ts); the rows are then read a page at a time by id, so that only the ids of
 * every match are held, never their rows.
 */
export async function* walkMatches(
  db: Kysely<Database>,
  filter: ProductFilter,
  shop: ShopSearch,
  order: OrderClause[],
  pageSize: number,
): AsyncGenerator<ProductPage> {
  const tree = shop.categories ? await categoryTree(db, filter.projectId) : undefined;
  const ids = await matchIds(db, {
    filter,
    candidates: shop.candidates,
    relevance: shop.relevance,
    order,
    inSql: {
      priceMin: shop.priceMin,
      priceMax: shop.priceMax,
      inStock: shop.inStock,
      inventoryType: shop.inventoryType,
      categoryIds: shop.categories && descendantsIn(tree!, shop.categories),
    },
  });
  for (let i = 0; i < ids.length; i += pageSize) {
    const chunk = ids.slice(i, i + pageSize);
    const q = db
      .selectFrom('products')
      .select(SHOWN_COLUMNS)
      .where('products.project_id', '=', filter.projectId)
      .where('products.id', 'in', chunk);
    const byId = new Map((await selectRows(db, q, SHOWN)).map((row) => [row.id, row]));
    yield {
      rows: chunk.map((id) => byId.get(id)!),
      categories: await categoryIdsOf(db, filter.projectId, chunk),
    };
  }
}
