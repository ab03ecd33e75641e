import { readsStock } from '../../../cache/invalidation.js';
import type { Reads } from '../../../db/reads.js';
import type { ListProducts, ProductFilter } from '../list.js';
import { presentedProducts } from '../presented.js';
import type { OrderClause } from '../schemas.js';
import { type ShopSearch, searchPage } from './page.js';
import { type VocabularyScope, vocabularyOf } from './vocabulary-cache.js';
import { answersInMemory } from './memory-page.js';

/**
 * The products list with CONTRACT 17's parameters: the query words' candidates from the
 * project's vocabulary (as the database shows it at the request's version or later), then a
 * page, its total and its facets in one snapshot, kept in the page cache by the versions of
 * what they read (a list that reads stock by every product write: cache/invalidation.ts, readsStock).
 */
export const shopList: ListProducts<ProductFilter & { shop: ShopSearch }> = async (
  reads,
  filter,
  order,
  page,
  perpage,
  shown,
  counts,
) => {
  const { shop } = filter;
  await findCandidates(reads, shown.project, shop);
  const offset = (page - 1) * perpage;
  // From the match index when it can answer (asked only when the page cache misses), else in SQL.
  const read = async () => {
    const { indexes } = shown;
    const index = indexes && answersInMemory(filter, order) ? await indexes.ready(reads, shown.project) : undefined;
    if (indexes && index) return indexes.page(index, filter, shop, order, offset, perpage);
    return reads.snapshot((db) => searchPage(db, filter, shop, order, offset, perpage));
  };
  const kind = readsStock({
    in_stock: shop.inStock,
    inventory_type: shop.inventoryType,
    facets: shop.facets?.join(','),
  })
    ? 'productsByStock'
    : 'productLists';
  const result = counts?.pages
    ? await counts.pages.get(counts.project, kind, keyOf(filter, order, page, perpage), read)
    : await read();
  const products = await presentedProducts(reads.point, shown.records, shown.project, result.ids);
  return { products, total: result.total, facets: result.facets };
};

/** Each `q` word's candidates, from the project's vocabulary as the database shows it at the request's version or later. */
export async function findCandidates(reads: Reads, project: VocabularyScope, shop: ShopSearch): Promise<void> {
  if (!shop.words?.length) return;
  const vocabulary = await vocabularyOf(reads.general, project);
  shop.candidates = shop.words.map((w, i) => vocabulary.match(w, i === shop.words!.length - 1));
}

/** Everything that decides the page: the filter, the order and the page's bounds. */
function keyOf(
  filter: ProductFilter & { shop: ShopSearch },
  order: OrderClause[],
  page: number,
  perpage: number,
): string {
  const { candidates: _candidates, ...shop } = filter.shop;
  return JSON.stringify(['search', { ...filter, shop }, order, page, perpage]);
}
