import type { Kysely } from 'kysely';
import { Lru } from '../../../cache/lru.js';
import type { Reads } from '../../../db/reads.js';
import type { Database } from '../../../db/schema.js';
import type { MatchIndex } from './match-index.js';
import { ALL_PRODUCTS } from '../counts.js';
import { applyCatchUp, buildIndex, readCatchUp } from './match-index-load.js';
import { vocabularyOf } from './vocabulary-cache.js';
import type { ProductFilter } from '../list.js';
import type { OrderClause } from '../schemas.js';
import { afterOpenWrites } from '../../../writes/open-writes.js';
import { wordRunsOf } from './memory-matches.js';
import { memoryPage } from './memory-page.js';
import type { SearchPage, ShopSearch } from './page.js';
import { SearchThreadError, SearchThreads } from './search-threads.js';

// The match indexes of this app (match-index.ts), per database handle (a replica keeps its
// own) and project incarnation, in one LRU weighed in bytes (STOREFRONT_SEARCH_INDEX_BYTES).
// Never stale, as the vocabulary (vocabulary-cache.ts): before an answer, an index behind
// the request's project row (its products or categories version) is caught up from the
// change log. A project without an index is built in the background, page by page; its
// requests meanwhile take the SQL path (page.ts); the one that started the build waits at
// most WAIT_MS for it first, so that a small project is answered from memory at once. A
// catch-up that finds most of the catalog changed builds again the same way. An index
// larger than the whole budget is never kept: its project stays on the SQL path (remembered
// so that it is not built again and again).

/** How long a request waits for a build before taking the SQL path. */
const WAIT_MS = 250;
/** After a failed build, the project's requests take the SQL path this long before another try. */
const RETRY_MS = 60_000;

/** How long an answer computed on the event loop waits for the short writes open in this process (open-writes.ts). */
const WRITES_WAIT_MS = 100;

/** Where a failed build or search thread is said (the app's logger). */
export interface IndexLog {
  error(fields: object, message: string): void;
}

/** Search threads (search-threads.ts): how many, and the products from which an index's answers are computed there. */
export interface ThreadOptions {
  threads: number;
  from: number;
}

export interface IndexScope {
  readonly id: string;
  readonly incarnation: string;
  readonly products_version: number;
  readonly categories_version?: number;
}

interface Held {
  index: MatchIndex;
  catching: Promise<void> | null;
}

export class MatchIndexes {
  /** what happened so far (tests, logs): builds ended, catch-ups applied, answers given from an index, of them in a search thread */
  readonly stats = { built: 0, caughtUp: 0, rebuilds: 0, answered: 0, threaded: 0 };
  private readonly held: Lru<Held>;
  private readonly building = new Map<string, Promise<void>>();
  private readonly tooLarge = new Lru<true>(1024);
  /** when each project's last build failed */
  private readonly failed = new Lru<number>(1024);
  private closed = false;
  private readonly dbIds = new WeakMap<Kysely<Database>, number>();
  private nextDb = 0;
  private readonly threads: SearchThreads | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly log?: IndexLog,
    private readonly threading: ThreadOptions = { threads: 0, from: 0 },
  ) {
    this.held = new Lru<Held>(maxBytes, (h) => h.index.bytes);
    if (threading.threads > 0) this.threads = new SearchThreads(threading.threads);
  }

  /**
   * The page, total and facets of `filter` from `index` (memory-page.ts): in a search thread
   * when the index is large (the event loop stays free for other requests), else here, after
   * the short writes open in this process (their statements would wait behind the computation).
   */
  async page(
    index: MatchIndex,
    filter: ProductFilter,
    shop: ShopSearch,
    order: OrderClause[],
    offset: number,
    perpage: number,
  ): Promise<SearchPage> {
    const { threads } = this;
    if (threads && index.size >= this.threading.from) {
      try {
        // The runs are read inside the gate: a catch-up may renumber the slots before it.
        const page = await index.gate.read(() =>
          threads.page(index, wordRunsOf(index, shop.candidates), filter, shop, order, offset, perpage),
        );
        this.stats.threaded++;
        return page;
      } catch (error) {
        if (!(error instanceof SearchThreadError)) throw error;
        this.log?.error({ err: error }, 'search thread failed: the answer is computed on the event loop');
      }
    }
    await afterOpenWrites(WRITES_WAIT_MS);
    return memoryPage(index, wordRunsOf(index, shop.candidates), filter, shop, order, offset, perpage);
  }

  /** The project's index, caught up to at least the request's versions; undefined: take the SQL path. */
  async ready(reads: Reads, project: IndexScope): Promise<MatchIndex | undefined> {
    if (this.maxBytes === 0) return undefined;
    const key = this.keyOf(reads.general, project);
    if (this.tooLarge.get(key)) return undefined;
    const failedAt = this.failed.get(key);
    if (failedAt !== undefined && Date.now() - failedAt < RETRY_MS) return undefined;
    let held = this.held.get(key);
    if (!held) {
      await this.build(reads.general, project, key);
      held = this.held.get(key);
      if (!held) return undefined;
    }
    const wanted = Math.max(project.products_version, project.categories_version ?? 0);
    // Twice at most: a catch-up already under way may have begun before the request's version.
    for (let tries = 0; tries < 2 && held.index.seen < wanted; tries++) {
      held.catching ??= this.catchUp(reads, project, key, held).finally(() => (held.catching = null));
      await held.catching;
      if (this.held.get(key) !== held) return undefined;
    }
    if (held.index.seen < wanted) return undefined;
    this.stats.answered++;
    return held.index;
  }

  /** The app is closing: no build is started or reported any more, the search threads end. */
  async close(): Promise<void> {
    this.closed = true;
    await this.threads?.close();
  }

  /**
   * Builds, one after another, the indexes (and reads the vocabularies) of the projects
   * holding the most products while they fit the budget, so that a restarted server answers
   * their searches from memory as soon as it can instead of at the first search (serve's
   * start; a build's failure is logged).
   */
  async warm(reads: Reads): Promise<void> {
    if (this.maxBytes === 0) return;
    const projects = await reads.general
      .selectFrom('projects')
      .innerJoin('product_counts', 'product_counts.project_id', 'projects.id')
      .where('product_counts.category_id', '=', ALL_PRODUCTS)
      .where('product_counts.total', '>', 0)
      .select(['projects.id', 'projects.incarnation', 'projects.products_version', 'product_counts.total'])
      .orderBy('product_counts.total', 'desc')
      .limit(64)
      .execute();
    for (const project of projects) {
      if (this.closed) return;
      const key = this.keyOf(reads.general, project);
      if (!this.held.get(key) && !this.tooLarge.get(key)) await this.build(reads.general, project, key, Infinity);
      // Its vocabulary too: a million products' words take seconds to read, which the first `q` would wait for.
      await vocabularyOf(reads.general, project);
      if (this.closed || this.held.weight >= this.maxBytes) return;
    }
  }

  /** Starts the project's build and waits at most `waitMs` for it; a build under way is not waited for. */
  private async build(
    db: Kysely<Database>,
    project: Pick<IndexScope, 'id' | 'incarnation'>,
    key: string,
    waitMs = WAIT_MS,
  ): Promise<void> {
    if (this.building.has(key) || this.closed) return;
    const building = buildIndex(db, project.id, project.incarnation)
      .then((index) => {
        if (!index) return;
        this.stats.built++;
        if (index.bytes > this.maxBytes) this.tooLarge.set(key, true);
        else this.held.set(key, { index, catching: null });
      })
      .catch((error: unknown) => {
        this.failed.set(key, Date.now());
        // A build cut off by the app's close (its database closed under it) is no failure to report.
        if (!this.closed)
          this.log?.error(
            { err: error, project: project.id },
            'search index build failed: the project is searched in SQL meanwhile, and built again in a minute',
          );
      })
      .finally(() => this.building.delete(key));
    this.building.set(key, building);
    if (waitMs === Infinity) return building;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([building, waited]);
    clearTimeout(timer);
  }

  private async catchUp(reads: Reads, project: IndexScope, key: string, held: Held): Promise<void> {
    const c = await readCatchUp(reads, project.id, held.index);
    if (c === 'rebuild') {
      this.stats.rebuilds++;
      this.held.delete(key);
      return;
    }
    await held.index.gate.change(() => applyCatchUp(held.index, c));
    this.stats.caughtUp++;
    // Weighed again: the index grew (or shrank, compacted).
    if (this.held.get(key) === held) this.held.set(key, held);
  }

  private keyOf(db: Kysely<Database>, project: Pick<IndexScope, 'id' | 'incarnation'>): string {
    let id = this.dbIds.get(db);
    if (id === undefined) this.dbIds.set(db, (id = this.nextDb++));
    return `${id}\u0000${project.id}\u0000${project.incarnation}`;
  }
}
