import { SortedWords, merged } from './sorted-words.js';
import { type MatchCodes, walkMatches } from './vocabulary-walk.js';
import { typosAllowed } from './words.js';

export type { MatchCodes } from './vocabulary-walk.js';

// A project's vocabulary, and the words a query word matches in it: exactly, with typos by
// its length (Damerau, optimal string alignment: a swap of neighbours is one edit), and for
// the last word of `q` as a prefix. The words are kept sorted in one string (sorted-words.ts),
// walked as a trie with a row of the edit distance table per node (as MiniSearch and
// Lucene's automata do), pruned as soon as every cell of a row passes the allowed edits or
// the words under a node are too short to come within them (vocabulary-walk.ts): the cost
// follows the words near the query, not the size of the vocabulary.
//
// Words arrive one by one (vocabulary-cache.ts adds a refresh's words, then matches): they
// wait unsorted until the next match, then join a small second list (made again at each fold:
// its cost follows its size), which is merged into the large one once it passes a 64th of it
// (a merge copies the whole text). A first load of the vocabulary is thus sorted once.

/** A last word of at most this many characters has its matches kept (the words under a letter or two are thousands). */
const SHORT_PREFIX = 2;
/** Short prefixes' matches kept at most (the letters and their common pairs). */
const KEPT_PREFIXES = 1024;
/** The second list is merged into the first once it holds more than this and a 64th of the first. */
const MIN_MERGE = 4096;

export class Vocabulary {
  private main = SortedWords.EMPTY;
  private side = SortedWords.EMPTY;
  private waiting: string[] = [];
  /** the matches of short prefixes (a letter's are tens of thousands of words), until a word is added */
  private shortPrefixes = new Map<string, MatchCodes>();

  /** `minMerge` other than the default is for tests: a small one makes every path run on few words. */
  constructor(private readonly minMerge = MIN_MERGE) {}

  /** The number of distinct words (folds the waiting ones in). */
  get size(): number {
    this.fold();
    return this.main.count + this.side.count;
  }

  add(word: string): void {
    this.waiting.push(word);
  }

  /** The vocabulary's words `query` matches, with their codes (not to be changed: short prefixes' are kept). */
  match(query: string, prefix: boolean): MatchCodes {
    this.fold();
    const short = prefix && query.length <= SHORT_PREFIX;
    const kept = short ? this.shortPrefixes.get(query) : undefined;
    if (kept) return kept;
    const q = Int32Array.from(query, (c) => c.codePointAt(0)!);
    const out: MatchCodes = new Map();
    const walk = { q, k: typosAllowed(q.length), prefix };
    walkMatches(this.main, walk, out);
    walkMatches(this.side, walk, out);
    // Kept only when many (a letter's are thousands), and at most KEPT_PREFIXES of them: two
    // characters of any script are many more strings than a shop's vocabulary starts with.
    if (short && out.size >= 256) {
      if (this.shortPrefixes.size >= KEPT_PREFIXES) this.shortPrefixes.clear();
      this.shortPrefixes.set(query, out);
    }
    return out;
  }

  /** Takes the words added since into the sorted lists (a match does it first too). */
  fold(): void {
    if (this.waiting.length === 0) return;
    const sorted = this.waiting.sort();
    this.waiting = [];
    const fresh: string[] = [];
    for (let t = 0; t < sorted.length; t++) {
      const w = sorted[t];
      if (w !== sorted[t - 1] && !this.main.has(w) && !this.side.has(w)) fresh.push(w);
    }
    if (fresh.length > 0) this.shortPrefixes.clear();
    const side = merged(this.side, fresh);
    if (side.count > Math.max(this.minMerge, this.main.count / 64)) {
      this.main = this.main.count === 0 ? side : merged(this.main, wordsOf(side));
      this.side = SortedWords.EMPTY;
    } else this.side = side;
  }
}

function wordsOf(words: SortedWords): string[] {
  return Array.from({ length: words.count }, (_, i) => words.word(i));
}
