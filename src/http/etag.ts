import { createHash } from 'node:crypto';

// The one entity tag of the API: SHA-1 of the JSON bytes sent, strong, in base64url. The
// caching hook sends it, the answer cache stores it beside the bytes, and If-Match compares
// against it, so that a tag read from any of them matches the others (docs/API.md, "HTTP
// behaviour").

export function etagOf(payload: string | Buffer): string {
  return `"${createHash('sha1').update(payload).digest('base64url')}"`;
}

/** If-None-Match: a list of entity tags, weak or strong, or `*`; compared weakly (RFC 9110 13.1.2). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
