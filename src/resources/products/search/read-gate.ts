// Readers and a writer of one match index across threads: a search thread reads the index's
// shared arrays while the main thread waits for its answer, and a catch-up changes them in
// place (a dead flag, a compaction's renumbering). A change waits until no reader is left;
// a reader that comes while a change waits or runs goes after it, so that a steady stream of
// searches never holds a catch-up back. On the main thread alone no gate is needed: an
// answer computed there runs to its end before anything else does.

export class ReadGate {
  private readers = 0;
  private changing: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  /** Runs `read` once no change waits or runs, and holds changes back until it settles. */
  async read<T>(read: () => Promise<T>): Promise<T> {
    while (this.changing) await this.changing;
    this.readers++;
    try {
      return await read();
    } finally {
      if (--this.readers === 0) this.drained?.();
    }
  }

  /** Runs `change` once no reader is left. */
  async change(change: () => void): Promise<void> {
    while (this.changing) await this.changing;
    let done!: () => void;
    this.changing = new Promise<void>((resolve) => (done = resolve));
    try {
      if (this.readers > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = null;
      change();
    } finally {
      this.changing = null;
      done();
    }
  }
}
