import type { Api } from './api.js';
import { queryString } from './query.js';
import type { Change, ChangeType, ChangesPage, ChangesQuery } from './records.js';

// client.changes(): the change feed (`GET /changes/`) as an async iterator that follows
// `next` until `has_more` is false. Its `cursor` is where the next read starts: kept between
// runs, it makes the next one fetch only what changed. A 410 (a cursor older than the server
// keeps deletions) rejects with CursorGoneError; a 429 or 503 is waited out by api().

export interface ChangesOptions {
  /** a `next` of an earlier read (`feed.cursor`, `result.cursor`); omitted: from the beginning */
  since?: string;
  /** the record types to follow; the server's default is product, category and plan */
  types?: readonly ChangeType[];
  /** hidden products as records rather than deletions (needs a key with products:read_hidden) */
  fetchHidden?: boolean;
  /** entries per request, 1 to 1000 (default 1000: the fewest requests) */
  limit?: number;
  signal?: AbortSignal;
}

/** The public types the feed follows when `types` is not given (docs/API.md, "The change feed"). */
export const DEFAULT_CHANGE_TYPES: readonly ChangeType[] = ['product', 'category', 'plan'];

const FEED_LIMIT = 1000;

/**
 * The feed from `since`: `for await (const change of feed)` yields every entry, page after
 * page, until the server has nothing more. Iterating the same feed again later continues from
 * `feed.cursor`, so one feed object can be polled.
 */
export interface ChangeFeed extends AsyncIterable<Change> {
  /**
   * Where the next read starts: the `next` of the last page whose entries were all handed
   * out (undefined before the first page when no `since` was given). Stopping mid-page
   * leaves it before that page, so the entries not handed out are read again, not lost.
   */
  readonly cursor: string | undefined;
  /** Each answer as the server gave it, advancing `cursor` as each one is handed out. */
  pages(): AsyncGenerator<ChangesPage, void, undefined>;
}

// A closure rather than a class: the toolkit (ES2019, minified) stays small.
export function changeFeed(api: Api, options: ChangesOptions = {}): ChangeFeed {
  const { types, fetchHidden, limit = FEED_LIMIT, signal } = options;
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= FEED_LIMIT)) {
    throw new RangeError(`changes(): limit must be an integer from 1 to ${FEED_LIMIT}, got ${String(limit)}`);
  }
  if (types !== undefined && types.length === 0) throw new RangeError('changes(): types must name at least one type');
  let cursor = options.since;
  async function* pages() {
    for (;;) {
      const query: ChangesQuery = {
        since: cursor,
        limit,
        types: types?.join(','),
        fetch_hidden: fetchHidden || undefined,
      };
      const page = await api<ChangesPage>(`/changes/${queryString(query)}`, { signal });
      yield page;
      cursor = page.next;
      if (!page.has_more) return;
    }
  }
  return {
    get cursor() {
      return cursor;
    },
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.data;
    },
  };
}

export function changeHelpers(api: Api) {
  return {
    /** The change feed from `since` (or the beginning): see ChangeFeed. */
    changes: (options?: ChangesOptions) => changeFeed(api, options),
  };
}
