import type { Project } from '../resources/projects/repository.js';

/**
 * What each cache's answers show, as the record types whose version keys them: the one place
 * that says which writes invalidate which cached answers (docs/PERFORMANCE.md, "Caches, and
 * how each is invalidated"). Each column of `projects` holds the data_version of the last
 * write that changed that type (src/writes/type-versions.ts), and the project row is read on
 * every request, so a key names the state of exactly what the answer depends on.
 *
 * - products (lists, single products, `ids=`): which products a list holds (the products
 *   lists' version), and categories (a product shows its category ids; a deleted category is
 *   also declared as a change of its products, but a category write is rare and keying on it
 *   costs nothing). The products an answer shows are versioned one by one
 *   (RECORD_VERSIONED): the answer keeps the products_version it was computed at and the ids
 *   it shows, and is sent at a later products_version while none of those products changed
 *   (src/cache/product-changes.ts), so that a stock update costs the answers of one product.
 *   The currency every product shows is declared as a change of every product.
 * - productLists (the totals of products lists): the product writes that can move a product
 *   in or out of a list (not a stock change: no filter reads stock), and categories.
 *   Each product's own JSON is kept by its own version (src/cache/record-cache.ts).
 * - orders (lists and totals): orders only. Items keep their own name and price; a deleted
 *   product nulls its items' product_id, which the deletion declares as order changes.
 * - plans, users: their own type (a user shows its subscriptions' plan ids, so plans too).
 * - changes (the feed): every write, data_version itself (its `next` is that version).
 */
export const CACHE_READS = {
  products: ['product_lists_version', 'categories_version'],
  productLists: ['product_lists_version', 'categories_version'],
  orders: ['orders_version'],
  plans: ['plans_version'],
  users: ['users_version', 'plans_version'],
  changes: ['data_version'],
} as const satisfies Record<string, readonly (keyof Project)[]>;

export type CacheKind = keyof typeof CACHE_READS;

/**
 * The kinds whose answers also depend on each record they show, by that record's own version:
 * the column whose change may or may not touch them (src/plugins/answer-cache.ts).
 */
export const RECORD_VERSIONED: Partial<Record<CacheKind, 'products_version'>> = { products: 'products_version' };

/** The fields of the project row a cache key reads (the shared project read carries them all). */
export type VersionedProject = Pick<
  Project,
  'id' | 'incarnation' | 'products_version' | (typeof CACHE_READS)[CacheKind][number]
>;

/**
 * A cache key scoped to one project at the versions of the types a kind of answer shows.
 * The incarnation tells apart a project that was removed and made again with the same id (its
 * versions restart at 1), whichever process made it and however soon. \u0000 occurs in none of
 * the parts.
 */
export function versionedKey(project: VersionedProject, kind: CacheKind, rest: string): string {
  let key = `${project.id}\u0000${project.incarnation}\u0000${kind}`;
  for (const column of CACHE_READS[kind]) key += `\u0000${project[column]}`;
  return `${key}\u0000${rest}`;
}
