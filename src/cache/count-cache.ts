import { Lru } from './lru.js';
import { type VersionedProject, versionedKey } from './versioned-key.js';

// Exact totals of a filter (products list, orders list), keyed by project, data_version and
// the filter. Counting a million rows takes tens of milliseconds on either backend; every
// page of one filter shares its total, so it is counted once per version of the data.
// A write bumps the version in its own transaction, so a total of older data is never
// looked up again. One cache per app (tests run many apps on many databases in a process).
//
// STOREFRONT_COUNT_CACHE=0 turns it off (src/config.ts; the bench uses it to measure the
// queries alone).

export class CountCache {
  private readonly counts: Lru<number>;

  constructor(
    private readonly enabled: boolean,
    maxEntries: number,
  ) {
    this.counts = new Lru<number>(maxEntries);
  }

  async get(project: VersionedProject, filterKey: string, count: () => Promise<number>): Promise<number> {
    if (!this.enabled) return count();
    const key = versionedKey(project, filterKey);
    const hit = this.counts.get(key);
    if (hit !== undefined) return hit;
    const n = await count();
    this.counts.set(key, n);
    return n;
  }
}

/** What a list query needs to use the cache: the cache and the project as read for this request. */
export interface CountScope {
  cache: CountCache;
  project: VersionedProject;
}
