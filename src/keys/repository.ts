import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { generateKey, hashKey, isWellFormedKey, sameHash } from './token.js';

export interface KeyInfo {
  id: number;
  label: string;
  created_at: number;
  last_used_at: number | null;
}

const now = () => Math.floor(Date.now() / 1000);

export async function createKey(
  db: Kysely<Database>,
  projectId: string,
  label = '',
): Promise<{ id: number; key: string }> {
  const key = generateKey();
  const row = await db
    .insertInto('api_keys')
    .values({
      project_id: projectId,
      label,
      hash: hashKey(key),
      created_at: now(),
      last_used_at: null,
      revoked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), key };
}

export async function listKeys(db: Kysely<Database>, projectId: string): Promise<KeyInfo[]> {
  return db
    .selectFrom('api_keys')
    .select(['id', 'label', 'created_at', 'last_used_at'])
    .where('project_id', '=', projectId)
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Revokes a key; false when no live key has that id. */
export async function revokeKey(db: Kysely<Database>, keyId: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now() })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface KeyCheck {
  ok: boolean;
  keyId?: number;
}

// last_used_at is written at most once a minute per key and process, so that a busy key
// does not turn every read into a write. Keyed by hash: ids repeat across databases.
const LAST_USED_RESOLUTION = 60;
const lastWritten = new Map<string, number>();

/**
 * Checks a presented key against one project. Always answers from the database (one
 * indexed lookup), so that a revocation takes effect at once in every process.
 */
export async function checkKey(db: Kysely<Database>, projectId: string, key: string): Promise<KeyCheck> {
  if (!isWellFormedKey(key)) return { ok: false };
  const hash = hashKey(key);
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'project_id', 'hash', 'revoked_at', 'last_used_at'])
    .where('hash', '=', hash)
    .executeTakeFirst();
  if (!row || !sameHash(row.hash, hash) || row.revoked_at !== null || row.project_id !== projectId)
    return { ok: false };
  const t = now();
  const seen = Math.max(lastWritten.get(hash) ?? 0, row.last_used_at ?? 0);
  if (t - seen >= LAST_USED_RESOLUTION) {
    lastWritten.set(hash, t);
    await db.updateTable('api_keys').set({ last_used_at: t }).where('id', '=', row.id).execute();
  }
  return { ok: true, keyId: row.id };
}
