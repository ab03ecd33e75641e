import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { CountScope } from '../../cache/count-cache.js';
import type { RecordCache, RecordScope } from '../../cache/record-cache.js';
import { misjudgesLike } from '../../db/dialect.js';
import type { Reads } from '../../db/reads.js';
import type { Database } from '../../db/schema.js';
import { containsCondition, searchCondition } from '../../db/search-index.js';
import { keptCount } from './counts.js';
import { keptGramCount } from './grams.js';
import type { ShownProductRow } from './present.js';
import { compareCodePoints, foldCase } from './present.js';
import { presentedProducts } from './presented.js';
import { OWN_VERSION } from './versions.js';
import type { OrderClause } from './schemas.js';
import { groupedPage, orderColumn, tieDirection } from './grouped-page.js';
import type { Facets } from './search/facets.js';
import { shopList } from './search/list.js';
import type { ShopSearch } from './search/page.js';
import type { VocabularyScope } from './search/vocabulary-cache.js';
import type { IndexScope, MatchIndexes } from './search/match-index-cache.js';

// The products list: which rows, in which order, and their exact total. The total comes
// first, from the kept counts (counts.ts, grams.ts) when it can: with it, the plan is chosen
// here, the same on both backends, instead of by planners whose estimates of a LIKE or of a
// category's share can be far off. With T matches of N products, walking the order's index
// and testing each row reads about (offset + perpage) · N / T rows; starting from the
// matches (the category's links, the trigram index) reads and sorts T. Take the cheaper.

export interface ProductFilter {
  projectId: string;
  includeHidden: boolean;
  categoryId?: number;
  search?: string;
  ids?: number[];
  /** CONTRACT 17's parameters (q, the shop's filters, facets): the list goes to search/list.ts */
  shop?: ShopSearch;
}

/**
 * What shows a page's products: the record cache, the project's scope of it, of the
 * vocabulary and of the match index, and the match indexes (none: shopper search in SQL only).
 */
export interface ListShown {
  records: RecordCache;
  project: RecordScope & VocabularyScope & IndexScope;
  indexes?: MatchIndexes;
}

/** A page of products (their JSON), the filter's total and, when asked, its facets. */
export interface ListPage {
  products: string[];
  total: number;
  facets?: Facets;
}

/** One signature for the list and the search list it hands a CONTRACT 17 filter to. */
export type ListProducts<F extends ProductFilter> = (
  reads: Reads,
  filter: F,
  order: OrderClause[],
  page: number,
  perpage: number,
  shown: ListShown,
  counts?: CountScope,
) => Promise<ListPage>;

/**
 * A page of products as the API sends them (their JSON, from the record cache: presented.ts)
 * and their total. A page's ids and total are read in one snapshot (or taken from the page
 * cache); `ids=` reads at most 100 rows by primary key on the point connection. The versions
 * of the page's products and the rows the record cache misses are read after the ids, by
 * primary key, each statement seeing every commit before it, as on PostgreSQL (read
 * committed): a product is never shown older than its version, nor older than the ids.
 */
export const listProducts: ListProducts<ProductFilter> = async (reads, filter, order, page, perpage, shown, counts) => {
  if (filter.shop) return shopList(reads, { ...filter, shop: filter.shop }, order, page, perpage, shown, counts);
  if (filter.ids !== undefined) {
    // The ids and their versions in one statement, then the rows the record cache misses.
    const { ids, total, versions } = await idsPage(reads.point, filter, order, page, perpage);
    return { products: await presentedProducts(reads.point, shown.records, shown.project, ids, versions), total };
  }
  // The page's ids and total, kept by the version of what lists hold (a stock update leaves
  // them), then its products: versions and misses by primary key, read after the ids, on the
  // point connection (on SQLite the main thread's own: a message to a reader thread and back
  // cost more than these reads).
  const read = () => reads.snapshot((db) => productsPage(db, filter, order, page, perpage, counts));
  const { ids, total } = counts?.pages
    ? await counts.pages.get(counts.project, 'productLists', pageKey(filter, order, page, perpage), read)
    : await read();
  return { products: await presentedProducts(reads.point, shown.records, shown.project, ids), total };
};

/** A page of a filter as a page-cache key: the filter, the order and the page's bounds. */
function pageKey(filter: ProductFilter, order: OrderClause[], page: number, perpage: number): string {
  return `${filterKey(filter)}\u0000${order.join(',')}\u0000${page}\u0000${perpage}`;
}

async function productsPage(
  db: Kysely<Database>,
  filter: ProductFilter,
  order: OrderClause[],
  page: number,
  perpage: number,
  counts?: CountScope,
): Promise<{ ids: number[]; total: number }> {
  // A search term holding the field separator could only match across two fields.
  if (filter.search?.includes('\u001f')) return { ids: [], total: 0 };
  const offset = (page - 1) * perpage;
  const narrowed = filter.categoryId !== undefined || filter.search !== undefined;
  const whole = { projectId: filter.projectId, includeHidden: filter.includeHidden };
  const [total, all] = await Promise.all([
    totalOf(db, filter, counts),
    narrowed ? totalOf(db, whole, counts) : undefined,
  ]);
  if (offset >= total) return { ids: [], total };
  const dense = all === undefined || total * total > (offset + perpage) * all;
  if (order.length > 1 && dense) {
    const rowsOf = () => matching(db, filter, true);
    const projectRows = () => matching(db, whole, true);
    const rows = await groupedPage(db, rowsOf, projectRows, order, offset, perpage);
    return { ids: rows.map((r) => r.id), total };
  }
  return { ids: await pageOf(db, filter, order, offset, perpage, dense), total };
}

/**
 * The exact number of products the filter matches: a kept count without a search (in all
 * or in the category), a kept gram count for a term of 1 to 3 characters alone, else a count
 * of the matches (cached per data version when `counts` is given).
 */
function totalOf(db: Kysely<Database>, f: ProductFilter, counts?: CountScope): Promise<number> {
  const counted = async () => {
    const gram =
      f.categoryId === undefined
        ? await keptGramCount(db, f.projectId, foldCase(f.search!), f.includeHidden)
        : undefined;
    if (gram !== undefined) return gram;
    const row = await matching(db, f, false)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const count = f.search === undefined ? () => keptCount(db, f.projectId, f.categoryId, f.includeHidden) : counted;
  return counts ? counts.cache.get(counts.project, 'productLists', filterKey(f), count) : count();
}

/** The filter as a count-cache key: every field that changes which rows match. */
function filterKey(f: ProductFilter): string {
  return JSON.stringify(['products', f.includeHidden, f.categoryId ?? null, f.search ?? null]);
}

/**
 * The rows of a filter. `dense`: the query walks the order's index and tests each row (a
 * category link probed by primary key, the term found in the row's text); otherwise it
 * starts from the matches: the category's links, the trigram index.
 */
export function matching(
  db: Kysely<Database>,
  f: ProductFilter,
  dense: boolean,
): SelectQueryBuilder<Database, 'products', object> {
  let q = db.selectFrom('products').where('products.project_id', '=', f.projectId);
  if (!f.includeHidden) q = q.where('products.show_in_store', '=', 1);
  if (f.categoryId !== undefined) {
    const categoryId = f.categoryId;
    q = dense
      ? q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('product_categories as pc')
              .select(sql`1`.as('one'))
              .whereRef('pc.project_id', '=', 'products.project_id')
              .whereRef('pc.product_id', '=', 'products.id')
              .where('pc.category_id', '=', categoryId),
          ),
        )
      : q.where('products.id', 'in', (eb) =>
          eb
            .selectFrom('product_categories as pc')
            .select('pc.product_id')
            .where('pc.project_id', '=', f.projectId)
            .where('pc.category_id', '=', categoryId),
        );
  }
  if (f.ids) q = q.where('products.id', 'in', f.ids);
  if (f.search) {
    const term = foldCase(f.search);
    // Within ≤ 100 ids, or walking the order's index, each row is tested; else the trigram index finds them.
    q = q.where(f.ids || dense ? containsCondition(db, term) : searchCondition(db, term));
  }
  return q;
}

/**
 * `ids=`: at most 100 rows, fetched by primary key and then sorted here, all of them (the
 * page is cut by the caller, and their number is the total). Sorted in SQL, both planners
 * could walk the ordering's index over the whole catalog instead, testing each row against
 * the list (that read most of the project for 50 random ids), and a sort of copied rows
 * cost SQLite a third of the read.
 */
/** A page of an `ids=` list (at most 100 rows, by primary key), with each product's version. */
async function idsPage(
  db: Kysely<Database>,
  filter: ProductFilter,
  order: OrderClause[],
  page: number,
  perpage: number,
): Promise<{ ids: number[]; total: number; versions: Map<number, number> }> {
  // A search term holding the field separator could only match across two fields.
  if (filter.search?.includes('\u001f')) return { ids: [], total: 0, versions: new Map() };
  const rows = await matching(db, filter, true).select(ORDERED_BY).select(OWN_VERSION.as('version')).execute();
  const offset = (page - 1) * perpage;
  const shown = rows.sort(compareIn(order)).slice(offset, offset + perpage);
  return {
    ids: shown.map((r) => r.id),
    total: rows.length,
    versions: new Map(shown.map((r) => [r.id, Number(r.version ?? 0)])),
  };
}

/** What `ids=` sorts by: the columns of every clause, and id. */
const ORDERED_BY = [
  'products.id',
  'products.name_key',
  'products.price',
  'products.created_at',
  'products.custom_sort',
] as const;
type OrderedRow = Pick<ShownProductRow, 'id' | 'name_key' | 'price' | 'created_at' | 'custom_sort'>;

/** `ordered`'s order in JavaScript: the clauses' columns, then id (`tieDirection`). */
function compareIn(order: OrderClause[]): (a: OrderedRow, b: OrderedRow) => number {
  const keys = order.map(orderColumn);
  const idSign = tieDirection(order) === 'desc' ? -1 : 1;
  return (a, b) => {
    for (const { column, dir } of keys) {
      const x = a[column];
      const y = b[column];
      const c = typeof x === 'string' ? compareCodePoints(x, y as string) : x - (y as number);
      if (c !== 0) return dir === 'desc' ? -c : c;
    }
    return (a.id - b.id) * idSign;
  };
}

/** The ids of a page of a filter: any order over sparse matches, one clause over dense ones. */
async function pageOf(
  db: Kysely<Database>,
  filter: ProductFilter,
  order: OrderClause[],
  offset: number,
  perpage: number,
  dense: boolean,
): Promise<number[]> {
  if (!dense) {
    // From the matches: their ids sorted (SQLite sorted whole rows, descriptions and all, 3
    // to 5 times slower); the page's rows come from the record cache or by primary key. On PostgreSQL a term's matches
    // are gathered first (MATERIALIZED), so that its planner cannot walk the order's index
    // instead, its estimate of a LIKE being rough; a category's it estimates well.
    const ids =
      misjudgesLike(db) && filter.search !== undefined
        ? await ordered(
            db
              .with(
                (cte) => cte('m').materialized(),
                () => matching(db, filter, false).select('products.id'),
              )
              .selectFrom('products')
              .innerJoin('m', 'm.id', 'products.id')
              .where('products.project_id', '=', filter.projectId)
              .select('products.id'),
            order,
          )
            .limit(perpage)
            .offset(offset)
            .execute()
        : await ordered(matching(db, filter, false).select('products.id'), order)
            .limit(perpage)
            .offset(offset)
            .execute();
    return ids.map((r) => r.id);
  }
  // Ids alone, walking the order's index (which holds show_in_store): the rows of the page
  // come from the record cache, or by primary key (PostgreSQL read the row of every entry
  // it skipped when the page's rows were read here).
  const q = ordered(matching(db, filter, true).select('products.id'), order);
  const ids = await q.limit(perpage).offset(offset).execute();
  return ids.map((r) => r.id);
}

/** The query in the order's clauses; rows still tied by id, in the direction of the last clause. */
export function ordered<QB extends SelectQueryBuilder<Database, 'products', object>>(q: QB, order: OrderClause[]): QB {
  for (const clause of order) {
    const { column, dir } = orderColumn(clause);
    q = q.orderBy(`products.${column}`, dir) as QB;
  }
  return q.orderBy('products.id', tieDirection(order)) as QB;
}
