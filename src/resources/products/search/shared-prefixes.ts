// For sorted words: the UTF-16 units each shares with the word before it, and its length (a
// byte each), with the least share and the longest length of each block of 16, of 16 blocks,
// and so on (1/15 more). The end of the run of words sharing a prefix is the next word sharing
// less: found by climbing the blocks whose least share is not below the prefix and coming down
// in the first one that is, a few dozen byte reads whether the run holds 20 words or 20,000;
// the blocks passed on the way are the run, so its longest word comes with it.
//
// A value over CAP is kept as CAP. A share cut so cuts a run at each word, and the walk,
// resuming at CAP, computes again rows it had computed: the same rows, the same answers, only
// slower. A length of CAP means "unknown", never a bound. Words are at most 64 code points
// (words.ts MAX_WORD), 128 units.

export const CAP = 255;
const FAN = 16;

export class SharedPrefixes {
  /** shares[0][i]: the units word i shares with word i - 1 (0 for the first); above, each block's least */
  private readonly shares: Uint8Array[];
  /** lengths[0][i]: word i's units; above, each block's most */
  private readonly lengths: Uint8Array[];
  /** the longest word of the run the last runEnd found, in units (CAP: perhaps longer) */
  longestInRun = 0;

  constructor(text: string, start: Int32Array) {
    const count = start.length - 1;
    const shares = new Uint8Array(count);
    const lengths = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const from = start[i];
      lengths[i] = Math.min(start[i + 1] - from, CAP);
      if (i === 0) continue;
      const before = start[i - 1];
      const common = Math.min(start[i + 1] - from, from - before, CAP);
      let t = 0;
      while (t < common && text.charCodeAt(from + t) === text.charCodeAt(before + t)) t++;
      shares[i] = t;
    }
    this.shares = levelsOf(shares, Math.min);
    this.lengths = levelsOf(lengths, Math.max);
  }

  /** The units word i shares with word i - 1. */
  get sharedWithPrevious(): Uint8Array {
    return this.shares[0];
  }

  /** The end of the run of words from i that share its first `units` units (and longestInRun). */
  runEnd(i: number, units: number): number {
    const { shares, lengths } = this;
    const count = shares[0].length;
    let longest = lengths[0][i];
    let level = 0;
    let j = i + 1;
    // up: the rest of j's block at this level, then the next blocks one level higher
    for (;;) {
      const least = shares[level];
      const top = level + 1 === shares.length;
      const stop = top ? least.length : Math.min(least.length, (Math.floor(j / FAN) + 1) * FAN);
      for (; j < stop && least[j] >= units; j++) longest = Math.max(longest, lengths[level][j]);
      if (j < stop) break;
      if (top || j >= least.length) {
        this.longestInRun = longest;
        return count;
      }
      j /= FAN;
      level++;
    }
    // down: the first entry below `units` in the block under j
    for (; level > 0; level--) {
      j *= FAN;
      for (; shares[level - 1][j] >= units; j++) longest = Math.max(longest, lengths[level - 1][j]);
    }
    this.longestInRun = longest;
    return j;
  }
}

/** `base` and the blocks' `pick` of it, of 16 blocks, and so on up to 16 values. */
function levelsOf(base: Uint8Array, pick: (a: number, b: number) => number): Uint8Array[] {
  const levels = [base];
  for (let below = base; below.length > FAN;) {
    const up = new Uint8Array(Math.ceil(below.length / FAN));
    for (let b = 0; b < up.length; b++) {
      let v = below[b * FAN];
      for (let j = b * FAN + 1; j < Math.min(below.length, (b + 1) * FAN); j++) v = pick(v, below[j]);
      up[b] = v;
    }
    levels.push(up);
    below = up;
  }
  return levels;
}
