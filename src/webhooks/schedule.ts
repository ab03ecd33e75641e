// When a failed delivery is tried again (docs/API.md, "Retries"): after 5 s, 5 min, 30 min,
// 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, each stretched or shortened by up to 10% at random so
// that many deliveries failing together do not all come back at the same moment. After the
// last one the delivery is failed and kept for replay.

export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
] as const;

export const JITTER = 0.1;

/**
 * The wait before the next attempt once `attempts` have failed (the first attempt is number
 * 1), or undefined when there is none left.
 */
export function retryDelay(attempts: number, random: () => number = Math.random): number | undefined {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 + JITTER * (2 * random() - 1)));
}

/** Every attempt there is: the first, and one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
