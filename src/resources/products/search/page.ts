import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { descendantsOf, type ShopFilters, withShopFilters } from '../filters.js';
import { orderColumn } from '../grouped-page.js';
import { type ProductFilter, matching, ordered } from '../list.js';
import { type Candidates, byRelevance, withRelevance } from './relevance.js';
import { type FacetName, type Facets, facetsOf } from './facets.js';
import type { PriceRange } from './price-ranges.js';
import type { OrderClause } from '../schemas.js';

// A page of the products list with CONTRACT 17's parameters: `q` (its candidates found in the
// vocabulary, relevance.ts), the filters (filters.ts) and `facets` (facets.ts), in one
// snapshot. The matches are counted exactly and sorted in SQL; the facets count their own
// sets. docs/PERFORMANCE.md ("Shopper search") says what this costs and why it is built so.

export interface ShopSearch {
  /** `q`'s words (the cache key's), undefined without `q` */
  words?: string[];
  /** per query word, its candidate words; undefined without `q` (or a `q` of no word) */
  candidates?: Candidates;
  /** `order` began with `relevance` (or `q` without `order`) */
  relevance: boolean;
  priceMin?: number;
  priceMax?: number;
  inStock?: boolean;
  inventoryType?: 'simple' | 'advanced';
  /** `categories=`: the ids asked for, before their descendants are added */
  categories?: number[];
  facets?: FacetName[];
  priceRanges?: PriceRange[];
}

export interface SearchPage {
  ids: number[];
  total: number;
  facets?: Facets;
}

/** Which filter each facet leaves out. */
const OWN_FILTER: Record<FacetName, (keyof ShopFilters)[]> = {
  category: ['categoryIds'],
  price: ['priceMin', 'priceMax'],
  in_stock: ['inStock'],
  inventory_type: ['inventoryType'],
};

export async function searchPage(
  db: Kysely<Database>,
  filter: ProductFilter,
  s: ShopSearch,
  order: OrderClause[],
  offset: number,
  perpage: number,
): Promise<SearchPage> {
  const shop: ShopFilters = {
    priceMin: s.priceMin,
    priceMax: s.priceMax,
    inStock: s.inStock,
    inventoryType: s.inventoryType,
    categoryIds: s.categories && (await descendantsOf(db, filter.projectId, s.categories)),
  };
  // A word no vocabulary word comes near matches nothing: no query needed for the rows.
  const none = s.candidates?.some((c) => c.size === 0) ?? false;
  const rows = (without: (keyof ShopFilters)[] = []) => {
    const kept = { ...shop };
    for (const k of without) delete kept[k];
    let q = withShopFilters(matching(db, filter, false), kept);
    if (s.candidates && !none) q = withRelevance(db, q, filter.projectId, s.candidates);
    if (none) q = q.where(sql<SqlBool>`1 = 0`);
    return q;
  };
  const counted = await rows()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const ids =
    offset >= total
      ? []
      : (
          await sorted(rows().select('products.id'), s.relevance && s.candidates !== undefined, order)
            .limit(perpage)
            .offset(offset)
            .execute()
        ).map((r) => Number(r.id));
  const facets = s.facets?.length
    ? await facetsOf(db, filter.projectId, s.facets, (name) => rows(OWN_FILTER[name]), s.priceRanges)
    : undefined;
  return { ids, total, facets };
}

/** Relevance first when asked, then the order's clauses, then newest first (CONTRACT 17); else `ordered`. */
function sorted<QB extends Parameters<typeof ordered>[0]>(q: QB, relevance: boolean, order: OrderClause[]): QB {
  if (!relevance) return ordered(q, order.length ? order : ['date_desc']);
  q = byRelevance(q);
  for (const clause of order) {
    const { column, dir } = orderColumn(clause);
    q = q.orderBy(`products.${column}`, dir) as QB;
  }
  return q.orderBy('products.created_at', 'desc').orderBy('products.id', 'desc') as QB;
}
