import type { Facets } from '../resources/products/search/facets.js';
import { Lru } from './lru.js';
import type { CacheKind } from './invalidation.js';
import { type VersionedProject, versionedKey } from './versioned-key.js';

// Exact totals of a filter (products list, orders list), keyed by project, the versions of
// the record types the list shows (versioned-key.ts) and the filter. Counting a million rows
// takes tens of milliseconds on either backend; every page of one filter shares its total,
// so it is counted once per version of what it counts. A write sets the versions of what it
// changed in its own transaction, so a total of older data is never looked up again. One
// cache per app (tests run many apps on many databases in a process).
//
// Single-flight: requests that miss the same key while it is being counted wait for that
// count instead of each running it (after a write, every connection asking for a popular
// page missed at once). The key holds the versions the request read, so a count is shared
// only with requests that read the same versions of what it counts: each of them read its
// project after it arrived, and the count's own reads begin after the first of them did.
//
// STOREFRONT_COUNT_CACHE=0 turns it off (src/config.ts; the bench uses it to measure the
// queries alone).
//
// The same cache, holding other values, keeps the ids of products list pages (`T`: their ids
// and total, src/resources/products/list.ts), keyed by the versions of what decides which
// products a page holds, so that a stock update leaves them valid.

export class CountCache<T = number> {
  private readonly counts: Lru<T>;
  private readonly counting = new Map<string, Promise<T>>();

  constructor(
    private readonly enabled: boolean,
    maxEntries: number,
  ) {
    this.counts = new Lru<T>(maxEntries);
  }

  get(project: VersionedProject, kind: CacheKind, filterKey: string, count: () => Promise<T>): Promise<T> {
    if (!this.enabled) return count();
    const key = versionedKey(project, kind, filterKey);
    const hit = this.counts.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let flight = this.counting.get(key);
    if (!flight) {
      flight = count().then(
        (n) => {
          this.counting.delete(key);
          this.counts.set(key, n);
          return n;
        },
        (error: unknown) => {
          // Not kept: the next request counts again.
          this.counting.delete(key);
          throw error;
        },
      );
      this.counting.set(key, flight);
    }
    return flight;
  }

  /** Counts kept (tests). */
  get size(): number {
    return this.counts.size;
  }

  /** Counts under way (tests). */
  get inFlight(): number {
    return this.counting.size;
  }
}

/** What a list query needs to use the cache: the cache and the project as read for this request. */
export interface CountScope {
  cache: CountCache;
  project: VersionedProject;
  /** the ids of list pages with their totals (the same cache, other values) */
  pages?: CountCache<ListPage>;
}

/** A page of a list: its records' ids, and the list's total. */
export interface ListPage {
  ids: number[];
  total: number;
  /** a shopper search's facets (src/resources/products/search/facets.ts), when asked */
  facets?: Facets;
}
