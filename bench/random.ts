// A seeded generator, so that a run's inputs can be drawn again: `BENCH_SEED=<n> npm run bench`
// (or `--seed`) replays the inputs of a run that printed that seed.

export interface Random {
  /** a float in [0, 1) */
  next(): number;
  /** an integer from `min` to `max`, both included */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: small, fast and well spread, enough for drawing inputs. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, pick: (items) => items[int(0, items.length - 1)] };
}

/** The seed of this run: BENCH_SEED or --seed when given, else a fresh one (printed by the caller). */
export function chooseSeed(given: string | undefined): number {
  if (given === undefined || given === '') return Math.floor(Math.random() * 2 ** 31);
  if (!/^\d{1,10}$/.test(given)) throw new Error(`the seed must be a whole number, got "${given}"`);
  return Number(given) >>> 0;
}
