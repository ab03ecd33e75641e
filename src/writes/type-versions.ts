import { type Kysely, sql } from 'kysely';
import { TYPE_VERSION } from '../cache/invalidation.js';
import type { ChangeType } from '../changes/entry.js';
import { brokenTypeVersions } from '../config.js';
import type { Database } from '../db/schema.js';

// The per-type versions of a project (migration 014): each record type's column takes the
// write's own data_version when the write declared a change of that type (a new currency is
// declared as a change of every product). Set by the write unit in the write's transaction,
// after its work, so that they commit exactly with the data; the caches key each answer by
// the versions of the types it shows (the rules: src/cache/invalidation.ts). data_version is unique
// per write and only grows, so a type's version changes with every write of that type and
// never comes back to an older value.

/**
 * Sets the version of each changed type to the write's data_version, and the products
 * lists' version (migration 015) when a product changed other than in place (`moved`).
 */
export async function setTypeVersions(
  trx: Kysely<Database>,
  projectId: string,
  types: Iterable<ChangeType>,
  moved: ReadonlySet<ChangeType>,
): Promise<void> {
  // FOR TESTS ONLY: broken on purpose, cached answers outlive the writes (src/config.ts).
  if (brokenTypeVersions()) return;
  const set: Record<string, unknown> = {};
  for (const type of types) set[TYPE_VERSION[type]] = sql`data_version`;
  if (moved.has('product')) set.product_lists_version = sql`data_version`;
  if (Object.keys(set).length === 0) return;
  await trx.updateTable('projects').set(set).where('id', '=', projectId).execute();
}
