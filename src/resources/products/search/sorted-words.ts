import { SharedPrefixes } from './shared-prefixes.js';

// Distinct words in UTF-16 order, in one string and one Int32Array: word i is
// text[start[i] .. start[i + 1]). A JS string costs ~20 bytes of header and a Map entry or
// trie node several times that; here a word costs its characters (one byte each when all are
// Latin-1) and four bytes of offset. Sorted, the words sharing a prefix are one run, so the
// list serves as a trie (vocabulary-walk.ts), with the prefix each word shares with the one
// before it (shared-prefixes.ts) to find where a prefix's run ends. Immutable: new words
// make a new one (merged). Words are well-formed UTF-16, as words.ts makes them (a lone
// surrogate is no letter): a run of shared units is then a run of shared code points.

export class SortedWords {
  static readonly EMPTY = new SortedWords('', Int32Array.of(0));
  /** the longest word, in UTF-16 units (≥ its code points) */
  readonly maxUnits: number;
  readonly shared: SharedPrefixes;

  constructor(
    readonly text: string,
    readonly start: Int32Array,
  ) {
    let most = 0;
    for (let i = 1; i < start.length; i++) most = Math.max(most, start[i] - start[i - 1]);
    this.maxUnits = most;
    this.shared = new SharedPrefixes(text, start);
  }

  get count(): number {
    return this.start.length - 1;
  }

  word(i: number): string {
    return this.text.slice(this.start[i], this.start[i + 1]);
  }

  /** The first index in [lo, count) whose word is not below `w` (as `<` orders strings). */
  lowerBound(w: string, lo = 0): number {
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(mid, w) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(w: string): boolean {
    const i = this.lowerBound(w);
    return i < this.count && this.compare(i, w) === 0;
  }

  private compare(j: number, w: string): number {
    const text = this.text;
    const from = this.start[j];
    const length = this.start[j + 1] - from;
    const common = Math.min(length, w.length);
    for (let t = 0; t < common; t++) {
      const d = text.charCodeAt(from + t) - w.charCodeAt(t);
      if (d !== 0) return d;
    }
    return length - w.length;
  }
}

/**
 * `words` with `fresh` (sorted, distinct, none of them in `words`) put in their places: the
 * runs of old words between two new ones are copied as whole slices of the text.
 */
export function merged(words: SortedWords, fresh: readonly string[]): SortedWords {
  if (fresh.length === 0) return words;
  const count = words.count + fresh.length;
  const start = new Int32Array(count + 1);
  const parts: string[] = [];
  let n = 0;
  let from = 0;
  let units = 0;
  const copy = (to: number) => {
    if (to === from) return;
    const shift = units - words.start[from];
    for (let i = from; i < to; i++) start[n++] = words.start[i] + shift;
    parts.push(words.text.slice(words.start[from], words.start[to]));
    units += words.start[to] - words.start[from];
    from = to;
  };
  for (const w of fresh) {
    copy(words.lowerBound(w, from));
    start[n++] = units;
    parts.push(w);
    units += w.length;
  }
  copy(words.count);
  start[n] = units;
  return new SortedWords(parts.join(''), start);
}
