import type { ChangeType } from '../changes/entry.js';
import type { ProjectTable } from '../db/schema.js';

// What each write invalidates, in one place (docs/PERFORMANCE.md, "Caches, and how each is
// invalidated"). A write declares the record types it changed (src/writes/); the unit sets
// each type's version column of `projects` to the write's data_version (TYPE_VERSION);
// every cached answer is keyed by the versions of the types it shows (CACHE_READS,
// src/cache/versioned-key.ts), so a write of a type it does not show leaves it. The products
// answers also outlive writes of products they do not show (RECORD_VERSIONED, src/cache/
// product-changes.ts, which reads the change log), and the lists' totals and page ids outlive
// a product write that moves no product in or out of any list or within one (`inPlace`):
// that rule depends on what the products list filters, sorts and counts by, so those are
// listed here, beside it, and test/cache/invalidation-rules.test.ts fails when the list
// gains a parameter or an order this file does not name.

/** The column of `projects` that holds each record type's version (migration 014). */
export const TYPE_VERSION: Record<ChangeType, keyof ProjectTable> = {
  product: 'products_version',
  category: 'categories_version',
  plan: 'plans_version',
  user: 'users_version',
  order: 'orders_version',
};

/**
 * What each cache's answers show, as the version columns that key them:
 * - products (lists, single products, `ids=`): which products a list holds (the products
 *   lists' version) and categories (a product shows its category ids); each product shown is
 *   versioned on its own (RECORD_VERSIONED). A new currency is declared as a change of every
 *   product.
 * - productLists (the totals and page ids of products lists): the lists' version, categories.
 * - productsByStock (lists, their totals and facets that read stock: STOCK_PARAMETERS as a
 *   filter or a facet, see readsStock): every product write, a stock update included, since
 *   it moves products in and out of them; no answer of them is carried to a later
 *   products_version (not RECORD_VERSIONED).
 * - orders (lists and totals): orders only. Items keep their own name and price; a deleted
 *   product nulls its items' product_id, which the deletion declares as order changes.
 * - changes (the feed): every write, data_version itself (its `next` is that version).
 */
export const CACHE_READS = {
  products: ['product_lists_version', 'categories_version'],
  productLists: ['product_lists_version', 'categories_version'],
  productsByStock: ['products_version', 'categories_version'],
  orders: ['orders_version'],
  changes: ['data_version'],
} as const satisfies Record<string, readonly (keyof ProjectTable)[]>;

export type CacheKind = keyof typeof CACHE_READS;

/** The kinds whose answers also depend on each record they show, by that column (answer-cache.ts). */
export const RECORD_VERSIONED: Partial<Record<CacheKind, 'products_version'>> = { products: 'products_version' };

/** The products list parameters, as filters or facets, that read a product's stock (CONTRACT 17). */
export const STOCK_PARAMETERS = ['in_stock', 'inventory_type'] as const;

/**
 * Whether a products list request reads stock: a filter or a facet of STOCK_PARAMETERS. A
 * stock update leaves product_lists_version, so such a list is kept as `productsByStock`.
 */
export function readsStock(query: Record<string, unknown>): boolean {
  const facets = typeof query.facets === 'string' ? query.facets.split(',') : [];
  return STOCK_PARAMETERS.some((p) => query[p] !== undefined || facets.includes(p));
}

/**
 * The product fields (as the API names them) that the products list reads: each query
 * parameter, each order clause (by its name before `_asc`/`_desc`) and each facet.
 * A parameter that reads no field (paging) says so with an empty list. What the
 * STOCK_PARAMETERS read does not count against `inPlace`: those lists are `productsByStock`.
 */
export const PRODUCT_LIST_READS = {
  parameters: {
    page: [],
    perpage: [],
    category: ['category_ids'],
    search: ['name', 'description', 'sku'],
    ids: ['id'],
    order: [],
    fetch_hidden: ['show_in_store'],
    q: ['name', 'description', 'sku'],
    price_min: ['price'],
    price_max: ['price'],
    in_stock: ['in_stock'],
    inventory_type: ['inventory_type'],
    categories: ['category_ids'],
    facets: [],
    price_ranges: ['price'],
  },
  orders: {
    relevance: ['name', 'description', 'sku'],
    name: ['name'],
    price: ['price'],
    date: ['created_at'],
    custom: ['custom_sort'],
  },
  facets: { category: ['category_ids'], price: ['price'], in_stock: ['in_stock'], inventory_type: ['inventory_type'] },
} as const satisfies Record<'parameters' | 'orders' | 'facets', Record<string, readonly string[]>>;

const BY_STOCK = new Set<string>(STOCK_PARAMETERS);
const LISTED = new Set<string>(
  Object.values(PRODUCT_LIST_READS).flatMap((group) =>
    Object.entries(group as Record<string, readonly string[]>).flatMap(([name, fields]) =>
      BY_STOCK.has(name) ? [] : fields,
    ),
  ),
);

/**
 * True when a product write that changed only these fields moves the product in no list
 * (no filter, order or facet reads them): the lists' totals and page ids stay valid, and the
 * write is declared with `ctx.changedInPlace` (src/writes/write-project.ts).
 */
export function inPlace(fields: Iterable<string>): boolean {
  for (const field of fields) if (LISTED.has(field)) return false;
  return true;
}
