import { CAP } from './shared-prefixes.js';
import type { SortedWords } from './sorted-words.js';

// The typo walk over sorted words (sorted-words.ts) as over a trie: a node is a prefix of
// some word, visited once, by the first word that has it, in sorted order (depth first). Each
// word reuses the edit-distance rows of the prefix it shares with the word walked before it,
// and a prefix whose row passes the allowed edits skips every word that starts with it
// (shared-prefixes.ts). The rows live in one Int32Array
// reused along the path: no allocation a node. Characters are code points, as `[...query]`.

/** A match's code: 0 the word itself, else 1 + its edits (a prefix without typo: 1). */
export type MatchCodes = Map<string, number>;

export interface Query {
  /** its code points */
  readonly q: Int32Array;
  /** the edits allowed */
  readonly k: number;
  readonly prefix: boolean;
}

/** Adds to `out` the words of `words` that `query` matches, with their codes. */
export function walkMatches(words: SortedWords, query: Query, out: MatchCodes): void {
  if (words.count === 0) return;
  const { q, k } = query;
  const n = q.length;
  const rows = new Int32Array((words.maxUnits + 1) * (n + 1));
  for (let j = 0; j <= n; j++) rows[j] = j;
  // along the path: each depth's code point and its end, in units from the word's start
  const chars = new Int32Array(words.maxUnits + 1);
  const ends = new Int32Array(words.maxUnits + 1);
  // the prefix nodes within the edits: word index, length in units, edits
  const prefixes: number[] = [];
  const { text, start, shared: runs } = words;
  const lcp = runs.sharedWithPrevious;
  let valid = 0;
  let i = 0;
  while (i < words.count) {
    const end = start[i + 1];
    // the depths shared with the path walked before (its rows still hold): the word's shared
    // units with the word before it, cut back to a whole code point
    const shared = Math.min(lcp[i], ends[valid]);
    let depth = Math.min(valid, shared);
    while (ends[depth] > shared) depth--;
    let at = start[i] + ends[depth];
    let next = i + 1;
    while (at < end) {
      const c = text.codePointAt(at)!;
      at += c > 0xffff ? 2 : 1;
      chars[++depth] = c;
      ends[depth] = at - start[i];
      const d = nextRow(rows, q, k, depth, c, chars[depth - 1]);
      if (d <= k) {
        if (at === end) keep(out, words.word(i), d === 0 ? 0 : 1 + d);
        if (query.prefix) prefixes.push(i, ends[depth], d);
      }
      if (d > k + 1) {
        next = runs.runEnd(i, ends[depth]);
        break;
      }
      // below a node too far from the query's end for the words under it (a run of 4-letter
      // SKU parts, for a 9-letter query), nothing comes within the edits; without typos, the
      // first character apart prunes anyway
      const limit = k === 0 ? 0 : reach(rows, n, k, depth);
      if (limit > 0) {
        const after = runs.runEnd(i, ends[depth]);
        if (runs.longestInRun < CAP && runs.longestInRun - ends[depth] < limit) {
          next = after;
          break;
        }
      }
    }
    valid = depth;
    i = next;
  }
  if (prefixes.length) collectPrefixes(words, prefixes, out);
}

/**
 * Row `depth` of the optimal string alignment table, from the two above it, for the node's
 * character `c` (its parent's `pc`, unused at depth 1). Only the band of cells within `k` of
 * the diagonal is computed: the others exceed `k` (a cell's value is at least its distance
 * from the diagonal) and are kept as k + 1 where the next row reads them; every cell within
 * the edits is exact all the same. Returns the edits of the whole query (row[n]) if within
 * `k`, else k + 1 if some cell is, else k + 2: the walk prunes.
 */
function nextRow(rows: Int32Array, q: Int32Array, k: number, depth: number, c: number, pc: number): number {
  const n = q.length;
  const row = depth * (n + 1);
  const prev = row - n - 1;
  const prev2 = prev - n - 1;
  const lo = Math.max(1, depth - k);
  const hi = Math.min(n, depth + k);
  rows[row] = depth;
  if (lo > 1) rows[row + lo - 1] = k + 1;
  if (hi < n) rows[row + hi + 1] = k + 1;
  let least = depth;
  for (let j = lo; j <= hi; j++) {
    let v = Math.min(rows[prev + j] + 1, rows[row + j - 1] + 1, rows[prev + j - 1] + (q[j - 1] === c ? 0 : 1));
    if (depth > 1 && j > 1 && q[j - 1] === pc && q[j - 2] === c) v = Math.min(v, rows[prev2 + j - 2] + 1);
    rows[row + j] = v;
    if (v < least) least = v;
  }
  const d = hi === n ? rows[row + n] : k + 1;
  return d <= k ? d : least <= k ? k + 1 : k + 2;
}

/**
 * How many more characters a word under the node may have and still never come within the
 * edits of the query, plus one: a cell of the node's row within the edits is n - j characters
 * of the query from its end, and each character fewer under the node is an edit more (a swap
 * from the row above passes through a cell of this row no dearer: row[j + 1] ≤ above[j] + 1).
 * A node's words at most R characters longer are hopeless if R < the result.
 */
function reach(rows: Int32Array, n: number, k: number, depth: number): number {
  const row = depth * (n + 1);
  let limit = depth <= k ? n + depth - k : Infinity;
  for (let j = Math.max(1, depth - k); j <= Math.min(n, depth + k); j++) {
    const v = rows[row + j];
    if (v <= k) limit = Math.min(limit, n - j + v - k);
  }
  return limit;
}

export function keep(out: MatchCodes, word: string, code: number): void {
  const had = out.get(word);
  if (had === undefined || code < had) out.set(word, code);
}

/**
 * Every word under a prefix node within the edits, with 1 + the fewest edits among the nodes
 * above it. The nodes' runs of words nest or are apart (a trie's subtrees): one sweep in
 * order of start, outer runs first, with a stack of the runs open.
 */
function collectPrefixes(words: SortedWords, found: number[], out: MatchCodes): void {
  const runs: [number, number, number][] = [];
  for (let t = 0; t < found.length; t += 3)
    runs.push([found[t], words.shared.runEnd(found[t], found[t + 1]), found[t + 2]]);
  runs.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const open: [number, number][] = [];
  let pos = 0;
  let r = 0;
  while (r < runs.length || open.length) {
    const top = open[open.length - 1];
    if (!top) {
      pos = runs[r][0];
      open.push([runs[r][1], runs[r][2]]);
      r++;
      continue;
    }
    const next = r < runs.length ? runs[r][0] : Infinity;
    const stop = Math.min(top[0], next);
    for (; pos < stop; pos++) keep(out, words.word(pos), 1 + top[1]);
    if (next < top[0]) {
      open.push([runs[r][1], Math.min(runs[r][2], top[1])]);
      r++;
    } else open.pop();
  }
}
