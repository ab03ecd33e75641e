import type { ProductFilter } from '../list.js';
import { type IndexColumns, LIVE, type MatchIndex, VISIBLE } from './match-index.js';
import type { Candidates } from './relevance.js';
import type { Run, WordRuns } from './word-postings.js';

// The match set of a request from the match index: the live slots the list shows (visible
// unless fetch_hidden, in `category` when given) holding a candidate of every `q` word, each
// with relevance.ts's rank. A product's code for a query word is the best `code × 2 + field`
// of its postings among the word's candidates, as the SQL's `min(...)` per product and word.
// The query word with the fewest postings drives: its slots are read once; each other word
// then keeps the slots it holds, probed slot by slot when that is far cheaper than reading
// its postings whole (worthProbing), else read whole (a word's postings are in slot order,
// word-postings.ts), so that a rare word beside a common one never reads the common one's
// postings.

export interface Matches {
  /** the matched slots */
  slots: Int32Array;
  /** per match (by place): words matched exactly or as a prefix, edits, words matched in the name */
  exact: Uint8Array;
  typos: Uint8Array;
  names: Uint8Array;
}

/**
 * Probing costs a binary search per match and candidate word; reading costs a pass over the
 * word's postings (and one more to clear them). A word is probed only when its searches are
 * well under its postings: a one-letter prefix (a thousand candidate words and more) beside
 * a broad word's matches is read, never probed (docs/PERFORMANCE.md, "Search as typed").
 */
export function worthProbing(matches: number, runs: number, postings: number): boolean {
  return matches * runs * Math.log2(2 + postings / runs) * 2 < postings;
}

export function matchedSlots(index: IndexColumns, words: WordRuns[] | undefined, filter: ProductFilter): Matches {
  if (!words) {
    const none = new Uint8Array(0);
    return { slots: shownSlots(index, filter), exact: none, typos: none, names: none };
  }
  let driver = 0;
  for (let w = 1; w < words.length; w++) if (words[w].count < words[driver].count) driver = w;
  const m = driverMatches(index, words[driver].runs, words[driver].count, filter);
  for (let w = 0; w < words.length && m.slots.length > 0; w++) {
    if (w === driver) continue;
    const { runs, count } = words[w];
    if (worthProbing(m.slots.length, runs.length, count)) probeWord(m, runs);
    else scanWord(index, m, runs);
  }
  return m;
}

/** Each query word's runs in the index's postings (undefined without `q`): read on the thread that keeps the index. */
export function wordRunsOf(index: MatchIndex, candidates: Candidates | undefined): WordRuns[] | undefined {
  return candidates?.map((c) => index.postings.runsOf(c));
}

/** A zeroed byte a slot, shared by the requests of this thread (each leaves it zeroed again). */
let scratch = new Uint8Array(0);
function scratchFor(size: number): Uint8Array {
  if (scratch.length < size) scratch = new Uint8Array(Math.max(size, scratch.length * 2));
  return scratch;
}

/**
 * Sets best[slot] to the best `code × 2 + field` + 1 of the runs (0: none). With `touched`,
 * each slot met first is written there; returns how many were.
 */
function markRuns(best: Uint8Array, runs: Run[], touched?: Int32Array): number {
  let n = 0;
  for (const { base, from, to, extra, code } of runs) {
    n = markRange(best, base, from, to, code * 2 + 1, touched, n);
    if (extra.length) n = markRange(best, extra, 0, extra.length, code * 2 + 1, touched, n);
  }
  return n;
}

function markRange(
  best: Uint8Array,
  values: ArrayLike<number>,
  from: number,
  to: number,
  c0: number,
  touched: Int32Array | undefined,
  n: number,
): number {
  for (let i = from; i < to; i++) {
    const v = values[i];
    const slot = v >> 1;
    const c = c0 + (v & 1);
    const had = best[slot];
    if (had === 0) {
      best[slot] = c;
      if (touched) touched[n++] = slot;
    } else if (c < had) best[slot] = c;
  }
  return n;
}

function clearRuns(best: Uint8Array, runs: Run[]): void {
  for (const { base, from, to, extra } of runs) {
    for (let i = from; i < to; i++) best[base[i] >> 1] = 0;
    for (let i = 0; i < extra.length; i++) best[extra[i] >> 1] = 0;
  }
}

/** The driver word's slots that the list shows, each with the rank of its code. */
function driverMatches(index: IndexColumns, runs: Run[], count: number, filter: ProductFilter): Matches {
  const best = scratchFor(index.size);
  const touched = new Int32Array(count);
  const n = markRuns(best, runs, touched);
  const flags = index.flags.items;
  const need = filter.includeHidden ? LIVE : LIVE | VISIBLE;
  const shows = filter.categoryId === undefined ? (s: number) => (flags[s] & need) === need : shownTest(index, filter);
  const slots = new Int32Array(n);
  const exact = new Uint8Array(n);
  const typos = new Uint8Array(n);
  const names = new Uint8Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const s = touched[i];
    const c = best[s] - 1;
    best[s] = 0;
    if (!shows(s)) continue;
    slots[m] = s;
    addCode(exact, typos, names, m, c);
    m++;
  }
  return {
    slots: slots.subarray(0, m),
    exact: exact.subarray(0, m),
    typos: typos.subarray(0, m),
    names: names.subarray(0, m),
  };
}

function addCode(exact: Uint8Array, typos: Uint8Array, names: Uint8Array, i: number, code: number): void {
  if (code < 2) exact[i]++;
  if (code >= 4) typos[i] += (code >> 1) - 1;
  if ((code & 1) === 0) names[i]++;
}

/** Keeps the matches holding one of `runs`, adding its code: the word's postings read whole. */
function scanWord(index: IndexColumns, m: Matches, runs: Run[]): void {
  const best = scratchFor(index.size);
  markRuns(best, runs);
  keepWhere(m, (s) => best[s] - 1);
  clearRuns(best, runs);
}

/** The same, each match's slot looked for in each run by binary search. */
function probeWord(m: Matches, runs: Run[]): void {
  keepWhere(m, (s) => {
    let bestCode = -1;
    for (const run of runs) {
      const f = fieldIn(run, s);
      if (f < 0) continue;
      const c = run.code * 2 + f;
      if (bestCode < 0 || c < bestCode) bestCode = c;
    }
    return bestCode;
  });
}

/** The field of slot `s`'s posting in the run (0 name, 1 elsewhere), -1 when it has none. */
function fieldIn(run: Run, s: number): number {
  const lowest = s * 2;
  const { base, extra } = run;
  let lo = run.from;
  let hi = run.to;
  if (hi > lo && base[hi - 1] >= lowest) {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (base[mid] < lowest) lo = mid + 1;
      else hi = mid;
    }
    return base[lo] >> 1 === s ? base[lo] & 1 : -1;
  }
  lo = 0;
  hi = extra.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (extra[mid] < lowest) lo = mid + 1;
    else hi = mid;
  }
  return lo < extra.length && extra[lo] >> 1 === s ? extra[lo] & 1 : -1;
}

/** Keeps, in place, the matches whose `codeOf(slot)` is not negative, adding that code to their rank. */
function keepWhere(m: Matches, codeOf: (slot: number) => number): void {
  const { slots, exact, typos, names } = m;
  let k = 0;
  for (let i = 0; i < slots.length; i++) {
    const c = codeOf(slots[i]);
    if (c < 0) continue;
    slots[k] = slots[i];
    exact[k] = exact[i];
    typos[k] = typos[i];
    names[k] = names[i];
    addCode(exact, typos, names, k, c);
    k++;
  }
  m.slots = slots.subarray(0, k);
  m.exact = exact.subarray(0, k);
  m.typos = typos.subarray(0, k);
  m.names = names.subarray(0, k);
}

/** Whether the list shows a slot: live, visible (or fetch_hidden), linked to `category` when given. */
function shownTest(index: IndexColumns, filter: ProductFilter): (slot: number) => boolean {
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
function shownSlots(index: IndexColumns, filter: ProductFilter): Int32Array {
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
