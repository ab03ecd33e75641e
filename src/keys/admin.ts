import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { nowSeconds } from './repository.js';
import { ADMIN_PREFIX, generateKey, hashKey, isWellFormedKey, sameHash } from './token.js';

// Admin keys (docs/API.md, "Admin API"): they manage projects (create, list, delete), and are
// no project's key. `sfa_` + the form of a project key (token.ts); only the SHA-256 is kept,
// in `admin_keys` (migration 019, `storefront admin-key create`) or in STOREFRONT_ADMIN_KEYS
// (comma-separated hashes, for a deployment whose operators keep keys outside the database).
// An admin call is rare: each is checked against the database, never from a cache, so a
// revocation holds in every process at once.

export interface AdminKeyInfo {
  id: number;
  label: string;
  created_at: number;
}

/** A new admin key, stored by its hash; `key` is shown once. */
export async function createAdminKey(
  db: Kysely<Database>,
  label: string,
): Promise<{ key: string; info: AdminKeyInfo }> {
  const key = generateKey(ADMIN_PREFIX);
  const info = await db
    .insertInto('admin_keys')
    .values({ label, hash: hashKey(key), created_at: nowSeconds(), revoked_at: null })
    .returning(['id', 'label', 'created_at'])
    .executeTakeFirstOrThrow();
  return { key, info };
}

/** The admin keys that still work, by id; never a key. */
export async function listAdminKeys(db: Kysely<Database>): Promise<AdminKeyInfo[]> {
  return db
    .selectFrom('admin_keys')
    .select(['id', 'label', 'created_at'])
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Revokes the key; false when no working admin key has this id. */
export async function revokeAdminKey(db: Kysely<Database>, id: number): Promise<boolean> {
  const done = await db
    .updateTable('admin_keys')
    .set({ revoked_at: nowSeconds() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}

/**
 * Who an admin key is, for the log: `admin-key:<id>` (stored) or `env:<first 12 of its hash>`
 * (STOREFRONT_ADMIN_KEYS); undefined when `key` is no working admin key.
 */
export async function checkAdminKey(
  db: Kysely<Database>,
  key: string,
  envHashes: readonly string[],
): Promise<string | undefined> {
  if (!isWellFormedKey(key, ADMIN_PREFIX)) return undefined;
  const hash = hashKey(key);
  // Every listed hash compared, in constant time each: the time taken tells nothing of which.
  let listed = false;
  for (const h of envHashes) listed = sameHash(h, hash) || listed;
  if (listed) return `env:${hash.slice(0, 12)}`;
  const row = await db
    .selectFrom('admin_keys')
    .select(['id', 'hash'])
    .where('hash', '=', hash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && sameHash(row.hash, hash) ? `admin-key:${row.id}` : undefined;
}
