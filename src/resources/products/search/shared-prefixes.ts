// The UTF-16 units each sorted word shares with the word before it (a byte a word), and the
// minimum of each block of 16, of 16 blocks, and so on (1/15 more): the end of the run of
// words sharing a prefix is the next word sharing less, found by climbing the blocks whose
// minimum is not below the prefix and coming down in the first that is; a few dozen byte
// reads whether the run holds 20 words or 20,000.
//
// A share longer than CAP is kept as CAP: a run of words sharing more than CAP units is then
// cut at each word, and the walk, resuming at CAP, computes again rows it had already
// computed: the same rows, so the same answers, only slower. Words are at most 64 code points
// (words.ts MAX_WORD), 128 units.

const CAP = 255;
const FAN = 16;

export class SharedPrefixes {
  /** levels[0][i]: the units word i shares with word i - 1 (0 for the first word) */
  readonly levels: Uint8Array[];

  constructor(text: string, start: Int32Array) {
    const count = start.length - 1;
    const lcp = new Uint8Array(count);
    for (let i = 1; i < count; i++) {
      const from = start[i];
      const before = start[i - 1];
      const common = Math.min(start[i + 1] - from, from - before, CAP);
      let t = 0;
      while (t < common && text.charCodeAt(from + t) === text.charCodeAt(before + t)) t++;
      lcp[i] = t;
    }
    this.levels = [lcp];
    for (let below = lcp; below.length > FAN;) {
      const up = new Uint8Array(Math.ceil(below.length / FAN));
      for (let b = 0; b < up.length; b++) {
        let least = CAP;
        for (let j = b * FAN; j < Math.min(below.length, (b + 1) * FAN); j++) least = Math.min(least, below[j]);
        up[b] = least;
      }
      this.levels.push(up);
      below = up;
    }
  }

  /** The end of the run of words from i that share its first `units` units. */
  runEnd(i: number, units: number): number {
    const levels = this.levels;
    const count = levels[0].length;
    let level = 0;
    let j = i + 1;
    // up: the rest of j's block at this level, then the next blocks one level higher
    for (;;) {
      const mins = levels[level];
      const stop = level + 1 < levels.length ? Math.min(mins.length, (Math.floor(j / FAN) + 1) * FAN) : mins.length;
      while (j < stop && mins[j] >= units) j++;
      if (j < stop) break;
      if (j >= mins.length) return count;
      j /= FAN;
      level++;
    }
    // down: the first entry below `units` in the block under j
    for (; level > 0; level--) {
      j *= FAN;
      while (levels[level - 1][j] >= units) j++;
    }
    return j;
  }
}
