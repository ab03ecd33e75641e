import type { Api } from './api.js';
import { changeFeed } from './changes.js';
import { queryString } from './query.js';
import type { ChangeType, Paged } from './records.js';

// `all()`: every record of a paged list, in the list's order, while the catalog may change.
//
// Offset pages shift under concurrent writes: a record deleted (or moved) ahead of the walk
// pulls the next page's first record back onto a page already read (skipped), one added
// pushes a read record onto the next page (repeated). So the walk
// 1. takes the change feed's position before it starts (`cursor`);
// 2. reads every page, handing out each id once;
// 3. asks the feed what changed (of this list's type) during the pass. Nothing: every page
//    was a slice of one and the same list, so every record of it has been handed out. Else
//    it walks the pages again, handing out only ids not seen yet, until a pass saw no
//    change, at most `maxPasses` times.
// A 429 or 503 is waited out by api() and the same page asked again: the walk goes on where
// it stopped.

/** The largest page the API serves: the fewest requests for a full walk. */
const WALK_PERPAGE = 100;
/** Passes before giving up on a list that changes faster than it can be read. */
export const DEFAULT_MAX_PASSES = 4;

export interface WalkFeed {
  /** the feed type of the list's records */
  type: ChangeType;
  /** the walk reads hidden products too: so must the feed */
  fetchHidden?: boolean;
}

export interface WalkOptions {
  /** full passes allowed while the list keeps changing (default 4); then all() rejects */
  maxPasses?: number;
}

/**
 * What `all()` returns: `for await (const record of walk)` yields each record of the list
 * once, and every record the list holds when the walk ends is among them (one that changed
 * during the walk may come in the state it had when read, or although it left the list).
 */
export interface ListWalk<T> extends AsyncIterable<T> {
  /**
   * The feed's position from before the first page (set once iteration began):
   * `changes({ since: walk.cursor })` yields exactly what changed since, which brings what
   * the walk gave up to date.
   */
  readonly cursor: string | undefined;
  /** Full passes over the pages so far: 1 when nothing changed during the walk. */
  readonly passes: number;
}

export function listWalk<T extends { id: number }>(
  api: Api,
  path: string,
  query: { perpage?: number },
  feed: WalkFeed,
  options: WalkOptions = {},
): ListWalk<T> {
  const perpage = query.perpage ?? WALK_PERPAGE;
  const maxPasses = options.maxPasses ?? DEFAULT_MAX_PASSES;
  let cursor: string | undefined;
  let passes = 0;
  async function* walk() {
    const seen = new Set<number>();
    cursor = await feedHead(api);
    let since = cursor;
    for (passes = 1; ; passes++) {
      for (let page = 1; ; page++) {
        const answer = await api<Paged<T>>(path + queryString({ ...query, page, perpage }));
        for (const record of answer.data) {
          if (seen.has(record.id)) continue;
          seen.add(record.id);
          yield record;
        }
        if (answer.data.length === 0 || page >= answer.meta.pages) break;
      }
      // What changed of this type while the pages were read; nothing: the pass was exact.
      const during = changeFeed(api, { since, types: [feed.type], fetchHidden: feed.fetchHidden });
      let changed = false;
      for await (const page of during.pages()) changed ||= page.data.length > 0;
      since = during.cursor!;
      if (!changed) return;
      if (passes >= maxPasses) {
        throw new Error(`all(): ${path} changed during each of ${maxPasses} walks; follow changes() instead`);
      }
    }
  }
  return {
    get cursor() {
      return cursor;
    },
    get passes() {
      return passes;
    },
    [Symbol.asyncIterator]: walk,
  };
}

/**
 * The feed's position now. The `next` of an answer with `has_more: false` stands after
 * everything committed when it was made, whatever types were asked (the log's order is the
 * project's), so the plans, the fewest records there are, give it in one small request.
 */
async function feedHead(api: Api): Promise<string> {
  const changes = changeFeed(api, { types: ['plan'] });
  for await (const page of changes.pages()) void page;
  return changes.cursor!;
}
