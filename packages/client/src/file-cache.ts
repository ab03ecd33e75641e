import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CachedAnswer, ConditionalCache } from './conditional-cache.js';

// `storefront-client/file-cache`: the conditional cache in a folder, one JSON file per URL,
// so that a static-site build's next run revalidates every page instead of downloading it.
// A separate entry because it needs node:fs; the main one runs in browsers too.

/** Answers kept in files under `dir` (made when first needed). */
export function fileCache(dir: string): ConditionalCache {
  const fileOf = (url: string) => join(dir, `${createHash('sha256').update(url).digest('hex')}.json`);
  return {
    async get(url) {
      try {
        const stored = JSON.parse(await readFile(fileOf(url), 'utf8')) as CachedAnswer & { url: string };
        return stored.url === url ? { etag: stored.etag, body: stored.body } : undefined;
      } catch {
        return undefined; // not there yet, or a file left half-written by a killed build
      }
    },
    async set(url, answer) {
      await mkdir(dir, { recursive: true });
      const file = fileOf(url);
      // Written aside, then renamed: a reader never sees half a file.
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify({ url, etag: answer.etag, body: answer.body }));
      await rename(temp, file);
    },
  };
}
