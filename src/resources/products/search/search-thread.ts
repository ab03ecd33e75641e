import { parentPort, workerData } from 'node:worker_threads';
import type { ProductFilter } from '../list.js';
import type { OrderClause } from '../schemas.js';
import type { IndexColumns } from './match-index.js';
import type { Run, WordRuns } from './word-postings.js';
import { memoryPage } from './memory-page.js';
import type { SearchPage, ShopSearch } from './page.js';

// A search thread (search-threads.ts starts it): it computes a page, its total and its facets
// from a match index whose arrays it shares with the main thread (SharedArrayBuffers), so that
// the milliseconds of a broad search at a million products are spent beside the event loop,
// not on it. The main thread holds changes to the index back while a request is here
// (read-gate.ts), so the arrays stay as they were when it was sent.

export interface ThreadRequest {
  id: number;
  columns: IndexColumns;
  /** the postings every run reads (word-postings.ts `base`) */
  postings: Int32Array;
  /** per `q` word, five numbers a run: from, to, code, and its later postings' bounds in `extras` */
  words?: Int32Array[];
  extras: Int32Array;
  filter: ProductFilter;
  shop: ShopSearch;
  order: OrderClause[];
  offset: number;
  perpage: number;
}

const NONE = new Int32Array(0);

export type ThreadReply = { id: number; page: SearchPage } | { id: number; error: string };

/** Each word's runs as numbers: the postings are shared, the later ones (few) copied. */
export function packWords(words: WordRuns[]): { words: Int32Array[]; extras: Int32Array; postings: Int32Array } {
  let postings: Int32Array | undefined;
  let extraCount = 0;
  for (const w of words) for (const r of w.runs) extraCount += r.extra.length;
  const extras = new Int32Array(extraCount);
  let at = 0;
  const packed = words.map(({ runs }) => {
    const out = new Int32Array(runs.length * 5);
    for (let i = 0, o = 0; i < runs.length; i++) {
      const r = runs[i];
      postings ??= r.base;
      if (r.base !== postings) throw new Error('runs of two postings arrays');
      out[o++] = r.from;
      out[o++] = r.to;
      out[o++] = r.code;
      out[o++] = at;
      for (let j = 0; j < r.extra.length; j++) extras[at++] = r.extra[j];
      out[o++] = at;
    }
    return out;
  });
  return { words: packed, extras, postings: postings ?? new Int32Array(0) };
}

export function unpackWords(words: Int32Array[], postings: Int32Array, extras: Int32Array): WordRuns[] {
  return words.map((packed) => {
    const runs: Run[] = [];
    let count = 0;
    for (let i = 0; i < packed.length; i += 5) {
      const from = packed[i];
      const to = packed[i + 1];
      const x0 = packed[i + 3];
      const x1 = packed[i + 4];
      runs.push({ base: postings, from, to, code: packed[i + 2], extra: x0 === x1 ? NONE : extras.subarray(x0, x1) });
      count += to - from + x1 - x0;
    }
    return { runs, count };
  });
}

/** What search-threads.ts starts the thread with, so that importing this file elsewhere starts nothing. */
export const THREAD_ROLE = 'storefront-search';

if (parentPort && workerData === THREAD_ROLE) {
  const port = parentPort;
  port.on('message', (r: ThreadRequest) => {
    let reply: ThreadReply;
    try {
      const words = r.words && unpackWords(r.words, r.postings, r.extras);
      reply = { id: r.id, page: memoryPage(r.columns, words, r.filter, r.shop, r.order, r.offset, r.perpage) };
    } catch (error) {
      reply = { id: r.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    port.postMessage(reply);
  });
}
