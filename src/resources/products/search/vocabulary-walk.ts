import type { SortedWords } from './sorted-words.js';

// The typo walk over sorted words (sorted-words.ts) as over a trie: a node is a prefix of
// some word, visited once, by the first word that has it, in sorted order (depth first). Each
// word reuses the edit-distance rows of the prefix it shares with the word walked before it,
// and a prefix whose row passes the allowed edits skips, by a galloping search, every word
// that starts with it. The rows live in one Int32Array reused along the path: no allocation
// a node. Characters are code points, as `[...query]`.

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
  const { q, k } = query;
  const n = q.length;
  const width = n + 1;
  const rows = new Int32Array((words.maxUnits + 1) * width);
  const chars = new Int32Array(words.maxUnits + 1);
  for (let j = 0; j <= n; j++) rows[j] = j;
  // the prefix nodes within the edits: word index, length in units, edits
  const prefixes: number[] = [];
  const { text, start } = words;
  let valid = 0;
  let i = 0;
  while (i < words.count) {
    const end = start[i + 1];
    let at = start[i];
    let depth = 0;
    // the code points shared with the path walked before: their rows still hold
    for (; depth < valid && at < end; depth++) {
      const c = text.codePointAt(at)!;
      if (c !== chars[depth + 1]) break;
      at += c > 0xffff ? 2 : 1;
    }
    let pruned = false;
    while (at < end) {
      const c = text.codePointAt(at)!;
      at += c > 0xffff ? 2 : 1;
      chars[++depth] = c;
      const least = nextRow(rows, q, depth, c, chars[depth - 1]);
      const d = rows[depth * width + n];
      if (d <= k) {
        if (at === end) keep(out, words.word(i), d === 0 ? 0 : 1 + d);
        if (query.prefix) prefixes.push(i, at - start[i], d);
      }
      if (least > k) {
        pruned = true;
        break;
      }
    }
    valid = depth;
    i = pruned ? words.prefixEnd(i, at - start[i]) : i + 1;
  }
  if (prefixes.length) collectPrefixes(words, prefixes, out);
}

/**
 * Row `depth` of the optimal string alignment table, from the two above it, for the node's
 * character `c` (its parent's `pc`, unused at depth 1); returns the row's minimum.
 */
function nextRow(rows: Int32Array, q: Int32Array, depth: number, c: number, pc: number): number {
  const n = q.length;
  const row = depth * (n + 1);
  const prev = row - n - 1;
  const prev2 = prev - n - 1;
  rows[row] = depth;
  let least = depth;
  for (let j = 1; j <= n; j++) {
    let v = Math.min(rows[prev + j] + 1, rows[row + j - 1] + 1, rows[prev + j - 1] + (q[j - 1] === c ? 0 : 1));
    if (depth > 1 && j > 1 && q[j - 1] === pc && q[j - 2] === c) v = Math.min(v, rows[prev2 + j - 2] + 1);
    rows[row + j] = v;
    if (v < least) least = v;
  }
  return least;
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
    runs.push([found[t], words.prefixEnd(found[t], found[t + 1]), found[t + 2]]);
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
