import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { categoryTree, descendantsIn, type ShopFilters, withShopFilters } from '../filters.js';
import { type ProductFilter, matching } from '../list.js';
import type { Candidates } from './relevance.js';
import { type FacetName, type FacetRow, type Facets, facetsOf } from './facets.js';
import { matchPage, matchRows, withCategories } from './match-set.js';
import { facetsInSql } from './sql-facets.js';
import type { PriceRange } from './price-ranges.js';
import type { OrderClause } from '../schemas.js';

// A page of the products list with CONTRACT 17's parameters: `q` (its candidates found in the
// vocabulary, relevance.ts), the filters (filters.ts) and `facets`, in one snapshot. The
// postings of `q`'s words are aggregated once per request (match-set.ts): without facets, one
// statement gives the page and the exact total; with facets, the filters no facet leaves out
// are applied in SQL and the rest on the rows read, from which the total, the page and every
// facet are counted (facets.ts). Without `q` there are no postings to share: each facet is an
// aggregate in SQL (sql-facets.ts). docs/PERFORMANCE.md ("Shopper search") says why.

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
  const names = s.facets ?? [];
  const tree = s.categories || names.includes('category') ? await categoryTree(db, filter.projectId) : undefined;
  const shop: ShopFilters = {
    priceMin: s.priceMin,
    priceMax: s.priceMax,
    inStock: s.inStock,
    inventoryType: s.inventoryType,
    categoryIds: s.categories && descendantsIn(tree!, s.categories),
  };
  const m = { filter, candidates: s.candidates, relevance: s.relevance, order, inSql: { ...shop } };
  if (names.length === 0) return matchPage(db, m, offset, perpage);
  if (!s.candidates) {
    // No postings to share: the page in one statement, each facet one aggregate (sql-facets.ts).
    const rowsWithout = (name: FacetName) => {
      const kept = { ...shop };
      for (const k of OWN_FILTER[name]) delete kept[k];
      return withShopFilters(matching(db, filter, false), kept);
    };
    const page = await matchPage(db, m, offset, perpage);
    return { ...page, facets: await facetsInSql(db, filter.projectId, names, rowsWithout, s.priceRanges) };
  }
  // The filters some facet leaves out are tested here, on the rows; the others in SQL.
  const own = new Set(names.flatMap((n) => OWN_FILTER[n]));
  for (const k of own) delete m.inSql[k];
  const rows = await matchRows(db, m);
  if (names.includes('category')) await withCategories(db, filter.projectId, rows);
  const tests = rowTests(shop, own);
  const passes = (r: FacetRow, skip?: (keyof ShopFilters)[]) =>
    tests.every(([k, test]) => skip?.includes(k) || test(r));
  const matched = rows.filter((r) => passes(r));
  return {
    ids: matched.slice(offset, offset + perpage).map((r) => r.id),
    total: matched.length,
    facets: facetsOf(rows, names, (r, name) => passes(r, OWN_FILTER[name]), tree, s.priceRanges),
  };
}

/** The filters of `keys` as tests of a row, each as withShopFilters applies it in SQL. */
function rowTests(f: ShopFilters, keys: Set<keyof ShopFilters>): [keyof ShopFilters, (r: FacetRow) => boolean][] {
  const tests: [keyof ShopFilters, (r: FacetRow) => boolean][] = [];
  const { priceMin, priceMax, inStock, inventoryType, categoryIds } = f;
  if (keys.has('priceMin') && priceMin !== undefined) tests.push(['priceMin', (r) => r.price >= priceMin]);
  if (keys.has('priceMax') && priceMax !== undefined) tests.push(['priceMax', (r) => r.price <= priceMax]);
  if (keys.has('inStock') && inStock !== undefined) tests.push(['inStock', (r) => r.stocked === inStock]);
  if (keys.has('inventoryType') && inventoryType !== undefined)
    tests.push(['inventoryType', (r) => r.inventoryType === inventoryType]);
  if (keys.has('categoryIds') && categoryIds !== undefined) {
    const wanted = new Set(categoryIds);
    tests.push(['categoryIds', (r) => r.categories!.some((c) => wanted.has(c))]);
  }
  return tests;
}
