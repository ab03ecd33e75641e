import { Grown, int32Of } from './slot-arrays.js';
import type { MatchCodes } from './vocabulary-walk.js';

// Each word's postings (`slot × 2 + field`) for the match index, in one Int32Array: word n's
// are base[start[n] .. start[n + 1]) (compressed rows, as a sparse matrix keeps them). A
// typed array per word cost ~200 bytes of header each, and a generated catalog has about as
// many words as products (every SKU is a word of its own). Postings added after the arrays
// were made wait in a short list per word (`extra`) until they pass an eighth of the base;
// then, and when dead slots are dropped, the arrays are made again in one counting pass.

/** One candidate word's postings in slot order, base[from .. to) then `extra`, and its code. */
export interface Run {
  base: Int32Array;
  from: number;
  to: number;
  extra: ArrayLike<number>;
  code: number;
}

/** A query word's candidates' postings, and how many they are. */
export interface WordRuns {
  runs: Run[];
  count: number;
}

/** Postings waiting outside the arrays before they are folded in. */
const MIN_FOLD = 65_536;
/** A build's pairs folded in as it goes, so that they never hold more than this many (8 bytes each). */
const BUILD_FOLD = 1 << 22;
const NONE: readonly number[] = [];

export class WordPostings {
  private readonly numbers = new Map<string, number>();
  private start: Int32Array = new Int32Array(1);
  private base: Int32Array = new Int32Array(0);
  private extra = new Map<number, number[]>();
  private extraCount = 0;
  private wordBytes = 0;
  /** the build's postings, as pairs, until fold() */
  private pendingWords: Grown<Int32Array> | null = Grown.int32(1024);
  private pendingValues: Grown<Int32Array> | null = Grown.int32(1024);
  /** the runs of the candidates asked before (a short prefix's are tens of thousands), until a posting is added or folded */
  private asked = new WeakMap<MatchCodes, WordRuns>();
  /** whether `asked` holds anything (a catch-up's postings then forget it once, not once a posting) */
  private askedSince = false;

  get words(): number {
    return this.numbers.size;
  }

  add(word: string, value: number): void {
    let n = this.numbers.get(word);
    if (n === undefined) {
      // A copy of its own: a word cut from a product's text would keep the whole text alive.
      this.numbers.set(Buffer.from(word).toString(), (n = this.numbers.size));
      this.wordBytes += word.length + 72;
    }
    if (this.pendingWords) {
      this.pendingWords.push(n);
      this.pendingValues!.push(value);
      if (this.pendingWords.length >= BUILD_FOLD) this.fold(undefined, true);
      return;
    }
    if (this.askedSince) this.forgetAsked();
    let list = this.extra.get(n);
    if (!list) this.extra.set(n, (list = []));
    list.push(value);
    this.extraCount++;
  }

  /**
   * The postings of each candidate word, with its code: base[from .. to) then `extra` (later
   * slots only: a new posting is always of a new slot, and folding keeps the order).
   */
  runsOf(candidates: MatchCodes): WordRuns {
    if (this.pendingWords) this.fold();
    const known = this.asked.get(candidates);
    if (known) return known;
    const { start, base, numbers, extra } = this;
    const inBase = start.length - 1;
    const runs: Run[] = [];
    let count = 0;
    for (const [word, code] of candidates) {
      const n = numbers.get(word);
      if (n === undefined) continue;
      const from = n < inBase ? start[n] : 0;
      const to = n < inBase ? start[n + 1] : 0;
      const later = extra.size === 0 ? NONE : (extra.get(n) ?? NONE);
      if (to === from && later.length === 0) continue;
      runs.push({ base, from, to, extra: later, code });
      count += to - from + later.length;
    }
    const found = { runs, count };
    this.asked.set(candidates, found);
    this.askedSince = true;
    return found;
  }

  private forgetAsked(): void {
    this.asked = new WeakMap();
    this.askedSince = false;
  }

  /** Folds the waiting postings into the arrays once they are many, and always at the end of a build. */
  foldIfWorth(): void {
    if (this.pendingWords || this.extraCount > Math.max(MIN_FOLD, this.base.length / 8)) this.fold();
  }

  /** The arrays made again from every posting; `remap` (slot → new slot, -1 dropped) renumbers them. */
  fold(remap?: Int32Array, building = false): void {
    const words = this.numbers.size;
    const counts = int32Of(words + 1, !building);
    const keep = (v: number) => (remap ? remap[v >> 1] >= 0 : true);
    const moved = (v: number) => (remap ? remap[v >> 1] * 2 + (v & 1) : v);
    this.visitAll((n, v) => {
      if (keep(v)) counts[n + 1]++;
    });
    for (let n = 0; n < words; n++) counts[n + 1] += counts[n];
    const base = int32Of(counts[words], !building);
    const at = counts.slice(0, words);
    this.visitAll((n, v) => {
      if (keep(v)) base[at[n]++] = moved(v);
    });
    this.start = counts;
    this.base = base;
    this.forgetAsked();
    this.extra = new Map();
    this.extraCount = 0;
    this.pendingWords = building ? Grown.int32(1024) : null;
    this.pendingValues = building ? Grown.int32(1024) : null;
  }

  get bytes(): number {
    const pending = (this.pendingWords?.bytes ?? 0) + (this.pendingValues?.bytes ?? 0);
    return this.wordBytes + this.start.byteLength + this.base.byteLength + this.extraCount * 8 + pending;
  }

  /** Every posting, word by word: the arrays', then those waiting. */
  private visitAll(visit: (word: number, value: number) => void): void {
    for (let n = 0; n + 1 < this.start.length; n++)
      for (let i = this.start[n]; i < this.start[n + 1]; i++) visit(n, this.base[i]);
    if (this.pendingWords) {
      const w = this.pendingWords.items;
      const v = this.pendingValues!.items;
      for (let i = 0; i < this.pendingWords.length; i++) visit(w[i], v[i]);
    }
    for (const [n, list] of this.extra) for (const v of list) visit(n, v);
  }
}
