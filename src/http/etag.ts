import { createHash } from 'node:crypto';
import { CODINGS, type Coding } from './content-coding.js';

// The one entity tag of the API: SHA-1 of the JSON bytes sent, strong, in base64url. The
// caching hook sends it, the answer cache stores it beside the bytes, and If-Match compares
// against it, so that a tag read from any of them matches the others (docs/API.md, "HTTP
// behaviour"). A compressed answer carries the same tag with its coding inside the quotes
// (`"abc-br"`): another representation of the same version, so both If-None-Match and
// If-Match accept the tag of any coding.

export function etagOf(payload: string | Buffer): string {
  return `"${createHash('sha1').update(payload).digest('base64url')}"`;
}

/** The strong ETag of one coding: the identity tag with a suffix inside the quotes. */
export function codingEtag(etag: string, coding: Coding | null): string {
  return coding === null ? etag : `${etag.slice(0, -1)}-${coding}"`;
}

/** Whether `tag` (as a client sent it, weak or strong) names `etag`'s version in any coding. */
export function sameVersion(tag: string, etag: string): boolean {
  return tag === etag || CODINGS.some((coding) => tag === codingEtag(etag, coding));
}

/** If-None-Match: a list of entity tags, weak or strong, or `*`; compared weakly (RFC 9110 13.1.2). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => sameVersion(tag.trim().replace(/^W\//, ''), etag));
}
