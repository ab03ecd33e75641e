import { Worker } from 'node:worker_threads';
import type { ProductFilter } from '../list.js';
import type { OrderClause } from '../schemas.js';
import type { MatchIndex } from './match-index.js';
import type { WordRuns } from './word-postings.js';
import type { SearchPage, ShopSearch } from './page.js';
import { packWords, THREAD_ROLE, type ThreadReply, type ThreadRequest } from './search-thread.js';

// The threads that compute answers from large match indexes (search-thread.ts), started at
// the first such answer. A request goes to the thread with the fewest waiting; a thread that
// fails or exits fails what it held (the caller then computes on the event loop) and is
// replaced at the next request. An idle thread does not keep the process alive.

const THREAD_URL = new URL('./search-thread.js', import.meta.url);

/** A search thread failed or exited: the answer is computed on the main thread instead. */
export class SearchThreadError extends Error {}

class SearchThread {
  private readonly worker = new Worker(THREAD_URL, { workerData: THREAD_ROLE });
  private readonly pending = new Map<number, { resolve(page: SearchPage): void; reject(e: Error): void }>();
  private nextId = 0;
  dead = false;

  constructor() {
    this.worker.on('message', (reply: ThreadReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if ('error' in reply) p.reject(new SearchThreadError(reply.error));
      else p.resolve(reply.page);
    });
    this.worker.on('error', (e) => this.fail(new SearchThreadError(`search thread failed: ${String(e)}`)));
    this.worker.on('exit', (code) => this.fail(new SearchThreadError(`search thread exited (code ${code})`)));
    this.worker.unref();
  }

  get waiting(): number {
    return this.pending.size;
  }

  ask(request: Omit<ThreadRequest, 'id'>): Promise<SearchPage> {
    if (this.dead) return Promise.reject(new SearchThreadError('search thread ended'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ ...request, id } satisfies ThreadRequest);
    });
  }

  async close(): Promise<void> {
    this.dead = true;
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.dead = true;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}

function sharedOrEmpty(a: Int32Array): boolean {
  return a.length === 0 || a.buffer instanceof SharedArrayBuffer;
}

export class SearchThreads {
  private readonly threads: SearchThread[] = [];

  constructor(private readonly size: number) {}

  /** The page of `memoryPage` (memory-page.ts), computed in a thread; the index must not change until it settles (read-gate.ts). */
  page(
    index: MatchIndex,
    words: WordRuns[] | undefined,
    filter: ProductFilter,
    shop: ShopSearch,
    order: OrderClause[],
    offset: number,
    perpage: number,
  ): Promise<SearchPage> {
    const packed = words ? packWords(words) : undefined;
    const { candidates: _candidates, ...shopAlone } = shop;
    const { shop: _shop, ...filterAlone } = filter;
    const columns = {
      size: index.size,
      ids: { items: index.ids.items },
      price: { items: index.price.items },
      created: { items: index.created.items },
      custom: { items: index.custom.items },
      flags: { items: index.flags.items },
      catStart: { items: index.catStart.items },
      catLinks: { items: index.catLinks.items },
      tree: index.tree,
    };
    const postings = packed?.postings ?? new Int32Array(0);
    // A plain buffer would be copied into the thread at every request: never sent (an index not trimmed yet).
    const arrays = [columns.ids, columns.price, columns.created, columns.custom, columns.flags, columns.catStart];
    if (!arrays.every((a) => a.items.buffer instanceof SharedArrayBuffer) || !sharedOrEmpty(postings))
      return Promise.reject(new SearchThreadError('the index is not in shared memory'));
    return this.thread().ask({
      columns,
      postings,
      words: packed?.words,
      extras: packed?.extras ?? new Int32Array(0),
      filter: filterAlone,
      shop: shopAlone,
      order,
      offset,
      perpage,
    });
  }

  async close(): Promise<void> {
    const all = this.threads.splice(0);
    await Promise.all(all.map((t) => t.close()));
  }

  private thread(): SearchThread {
    for (let i = this.threads.length - 1; i >= 0; i--) if (this.threads[i].dead) this.threads.splice(i, 1);
    if (this.threads.length < this.size) {
      const t = new SearchThread();
      this.threads.push(t);
      return t;
    }
    return this.threads.reduce((a, b) => (b.waiting < a.waiting ? b : a));
  }
}
