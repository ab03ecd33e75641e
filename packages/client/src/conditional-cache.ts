// The optional conditional cache of api() (ClientOptions.cache): the body and ETag of each GET
// answer, by URL. The next GET of the URL sends If-None-Match, and a 304 is answered with the
// stored body, so a rebuild with nothing changed transfers no bodies. Answers marked
// `no-store` (those that need an API key) are never kept.

export interface CachedAnswer {
  etag: string;
  body: unknown;
}

/** Where answers are kept: in memory (memoryCache), in files (storefront-client/file-cache), or your own. */
export interface ConditionalCache {
  get(url: string): CachedAnswer | undefined | Promise<CachedAnswer | undefined>;
  set(url: string, answer: CachedAnswer): void | Promise<void>;
}

/** Answers kept in this process, the `max` most recently used (default 1,000). */
export function memoryCache(max = 1000): ConditionalCache {
  const entries = new Map<string, CachedAnswer>();
  return {
    get(url) {
      const answer = entries.get(url);
      if (answer !== undefined) {
        entries.delete(url);
        entries.set(url, answer);
      }
      return answer;
    },
    set(url, answer) {
      entries.delete(url);
      entries.set(url, answer);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}
