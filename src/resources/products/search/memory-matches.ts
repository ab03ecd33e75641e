import type { ProductFilter } from '../list.js';
import { LIVE, type MatchIndex, VISIBLE } from './match-index.js';
import type { Candidates } from './relevance.js';

// The match set of a request from the match index: the live slots the list shows (visible
// unless fetch_hidden, in `category` when given) holding a candidate of every `q` word, each
// with relevance.ts's rank. Per query word, one byte per slot keeps the best code of its
// postings (`code × 2 + field`, plus one: 0 is none), as the SQL's `min(...)` per product and
// word; a slot is a match when every word's byte is set. Each word's postings are read once.

export interface Matches {
  /** the matched slots */
  slots: Int32Array;
  /** per match (by place): words matched exactly or as a prefix, edits, words matched in the name */
  exact: Uint8Array;
  typos: Uint8Array;
  names: Uint8Array;
}

export function matchedSlots(index: MatchIndex, candidates: Candidates | undefined, filter: ProductFilter): Matches {
  if (!candidates) {
    const none = new Uint8Array(0);
    return { slots: shownSlots(index, filter), exact: none, typos: none, names: none };
  }
  const words = candidates.map((c) => bestCodes(index, c));
  // The slots of the word with the fewest are tested against the others.
  const driver = words.reduce((a, b) => (b.touched.length < a.touched.length ? b : a));
  const shows = shownTest(index, filter);
  const slots = driver.touched.filter((s) => shows(s) && words.every((w) => w.best[s] !== 0));
  const exact = new Uint8Array(slots.length);
  const typos = new Uint8Array(slots.length);
  const names = new Uint8Array(slots.length);
  slots.forEach((s, i) => {
    for (const { best } of words) {
      const code = best[s] - 1;
      if (code < 2) exact[i]++;
      if (code >= 4) typos[i] += (code >> 1) - 1;
      if (code % 2 === 0) names[i]++;
    }
  });
  return { slots: Int32Array.from(slots), exact, typos, names };
}

/** Per slot, the best `code × 2 + field` + 1 of the word's candidates (0: none), and the slots that have one. */
function bestCodes(index: MatchIndex, candidates: Map<string, number>): { best: Uint8Array; touched: number[] } {
  const best = new Uint8Array(index.size);
  const touched: number[] = [];
  for (const [word, code] of candidates) {
    index.postings.each(word, (v) => {
      const slot = v >> 1;
      const c = code * 2 + (v & 1) + 1;
      if (best[slot] === 0) touched.push(slot);
      if (best[slot] === 0 || c < best[slot]) best[slot] = c;
    });
  }
  return { best, touched };
}

/** Whether the list shows a slot: live, visible (or fetch_hidden), linked to `category` when given. */
function shownTest(index: MatchIndex, filter: ProductFilter): (slot: number) => boolean {
  const flags = index.flags.items;
  const need = filter.includeHidden ? LIVE : LIVE | VISIBLE;
  const category = filter.categoryId;
  const start = index.catStart.items;
  const links = index.catLinks.items;
  return (s) => {
    if ((flags[s] & need) !== need) return false;
    if (category === undefined) return true;
    for (let j = start[s]; j < start[s + 1]; j++) if (links[j] === category) return true;
    return false;
  };
}

/** The live slots the list shows, without `q`. */
function shownSlots(index: MatchIndex, filter: ProductFilter): Int32Array {
  const out = new Int32Array(index.size);
  let n = 0;
  if (filter.categoryId === undefined) {
    // The whole catalog's scan, without a call per slot.
    const flags = index.flags.items;
    const need = filter.includeHidden ? LIVE : LIVE | VISIBLE;
    for (let s = 0; s < index.size; s++) if ((flags[s] & need) === need) out[n++] = s;
  } else {
    const shows = shownTest(index, filter);
    for (let s = 0; s < index.size; s++) if (shows(s)) out[n++] = s;
  }
  return out.subarray(0, n);
}
