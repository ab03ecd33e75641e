// When and how long to wait before asking again (api.ts). A 429 or 503 names its wait in
// Retry-After (seconds, or an HTTP date); a request that got no answer at all is retried
// after a growing pause, GET and HEAD only, since a POST may have been applied.

export interface RetryOptions {
  /** tries after the first; 0 turns retrying off (default 3) */
  retries?: number;
  /** the longest single wait, in milliseconds; a longer Retry-After is not waited for (default 60,000) */
  maxRetryWaitMs?: number;
}

export const DEFAULT_RETRIES = 3;
export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;
/** A status whose answer says "later": too many requests, or briefly unavailable. */
export const RETRY_STATUSES = [429, 503];

/** Milliseconds Retry-After asks for (0 when absent or unreadable: retry at once, once backed off). */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null || header.trim() === '') return 0;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? 0 : Math.max(0, date - now);
}

/** The pause before try `attempt` (1, 2, …) after a network error: 250 ms doubling, with jitter. */
export function backoffMs(attempt: number): number {
  const base = 250 * 2 ** (attempt - 1);
  return base / 2 + Math.random() * (base / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
