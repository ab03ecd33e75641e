import { Lru } from './lru.js';

// Each product's presented JSON, serialised once (docs/PERFORMANCE.md, "Caches, and how each
// is invalidated"). Single products, `ids=` and list pages are assembled from it: a page
// reads its ids and their versions from the database, and only the products missing here
// are read and presented.
//
// The version of a record is the seq of its row in the change log (src/changes/record.ts):
// the data_version of the last write that declared it changed, written in that write's
// transaction. data_version only grows and is unique per write, so every committed change of
// a product gives it a version it never had, in every process that reads the log. A read
// takes the versions before (or in the same statement as) the rows it presents, so an entry
// never holds a record older than its key: a read that starts after a write was
// acknowledged reads the new version, which no older JSON is stored under.
//
// Single-flight: requests missing the same entries while they are being presented wait for
// them instead of presenting them again.
//
// STOREFRONT_RECORD_CACHE=0 turns it off; STOREFRONT_RECORD_CACHE_BYTES bounds it (src/config.ts).

/** What a record's key is made of besides its id and version: the project and how it is shown. */
export interface RecordScope {
  readonly id: string;
  /** the project's life (migration 019): a project made again with the same id shares no entry */
  readonly incarnation: string;
  /** the currency every presented product shows (a new currency is also a change of every product) */
  readonly currency: string;
}

/** A presented record's JSON and the version it was read at. */
export interface Versioned {
  readonly id: number;
  readonly version: number;
}

export class RecordCache {
  private readonly kept: Lru<string>;
  private readonly presenting = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly enabled: boolean,
    maxBytes: number,
    /** FOR TESTS ONLY: keys without the version (CacheConfig.brokenRecordVersions) */
    private readonly broken = false,
  ) {
    this.kept = new Lru<string>(maxBytes, weigh);
  }

  /**
   * The JSON of each record, in the order given; `present` is called once, with the records
   * this cache misses, and answers their JSON (undefined for a record gone meanwhile, which
   * is then left out).
   */
  async assemble(
    scope: RecordScope,
    records: readonly Versioned[],
    present: (missing: Versioned[]) => Promise<Map<number, string>>,
  ): Promise<string[]> {
    if (!this.enabled) {
      const shown = await present([...records]);
      return records.flatMap((r) => shown.get(r.id) ?? []);
    }
    const keys = records.map((r) => this.keyOf(scope, r));
    const missing: Versioned[] = [];
    const missingKeys: string[] = [];
    records.forEach((r, i) => {
      if (this.kept.get(keys[i]) !== undefined || this.presenting.has(keys[i])) return;
      missing.push(r);
      missingKeys.push(keys[i]);
    });
    if (missing.length > 0) {
      const flight = present(missing);
      missing.forEach((r, i) => {
        const key = missingKeys[i];
        const one = flight.then(
          (shown) => {
            this.presenting.delete(key);
            const json = shown.get(r.id);
            if (json !== undefined) this.kept.set(key, json);
            return json;
          },
          (error: unknown) => {
            this.presenting.delete(key);
            throw error;
          },
        );
        // A failed presenting fails the requests that wait for it; awaited one after another,
        // the entries after the first failure would otherwise be rejections nobody handles.
        one.catch(() => undefined);
        this.presenting.set(key, one);
      });
    }
    // A kept record, or the flight presenting it (this request's own or another's), taken
    // now: awaited, a kept entry could be evicted by then.
    const sources = keys.map((key) => this.kept.get(key) ?? this.presenting.get(key));
    const out: string[] = [];
    for (const source of sources) {
      const json = typeof source === 'string' ? source : await source;
      if (json !== undefined) out.push(json);
    }
    return out;
  }

  /** Entries kept (tests, metrics). */
  get size(): number {
    return this.kept.size;
  }

  /** Bytes kept, as the budget counts them. */
  get bytes(): number {
    return this.kept.weight;
  }

  private keyOf(scope: RecordScope, r: Versioned): string {
    const version = this.broken ? 0 : r.version;
    return `${scope.id}\u0000${scope.incarnation}\u0000${scope.currency}\u0000${r.id}\u0000${version}`;
  }
}

/**
 * An entry's heap bytes: V8 keeps a string of Latin-1 characters in one byte each, any other in
 * two; the key, the map's entry and its bookkeeping came to about 430 bytes more a product
 * (measured with 20,000 generated products: 920 bytes of heap each for 492 characters of JSON).
 */
function weigh(json: string): number {
  return (NOT_LATIN1.test(json) ? 2 : 1) * json.length + 430;
}

const NOT_LATIN1 = /[\u0100-\uffff]/;
