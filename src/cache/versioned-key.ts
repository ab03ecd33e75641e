import type { Selectable } from 'kysely';
import type { ProjectTable } from '../db/schema.js';
import { CACHE_READS, type CacheKind } from './invalidation.js';

// A cache key by the versions of what an answer shows; which versions each kind of answer
// reads is in invalidation.ts.

/** The fields of the project row a cache key reads (the shared project read carries them all). */
export type VersionedProject = Pick<
  Selectable<ProjectTable>,
  'id' | 'incarnation' | 'products_version' | (typeof CACHE_READS)[CacheKind][number]
>;

/**
 * A cache key scoped to one project at the versions of the types a kind of answer shows.
 * The incarnation tells apart a project that was removed and made again with the same id (its
 * versions restart at 1), whichever process made it and however soon. \u0000 occurs in none of
 * the parts.
 */
export function versionedKey(project: VersionedProject, kind: CacheKind, rest: string): string {
  let key = `${project.id}\u0000${project.incarnation}\u0000${kind}`;
  for (const column of CACHE_READS[kind]) key += `\u0000${project[column]}`;
  return `${key}\u0000${rest}`;
}
