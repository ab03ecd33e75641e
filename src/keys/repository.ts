import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import { rowById } from '../db/by-id.js';
import { writeUnlessBusy } from '../db/dialect.js';
import type { Storage } from '../db/connect.js';
import type { ApiKeyTable, Database } from '../db/schema.js';
import { type Scope, SCOPES, scopesOf, scopesText } from './scopes.js';
import { generateKey, hashKey } from './token.js';

// How keys are kept: only the SHA-256 of a key is stored (token.ts), with its label, scopes
// (scopes.ts) and times. Every change to a project's keys bumps projects.keys_version in the
// same transaction, so that each process's copy of the keys (checker.ts) is known stale on
// the very next request. The CLI and the HTTP key API both come through here, handing over
// the storage: keys are read and written on the primary (a replica may not have a new key yet).

/** A key as `key list` and GET /keys/ show it: never the secret, nor its hash. */
export interface KeyInfo {
  id: number;
  label: string;
  scopes: Scope[];
  created_at: number;
  /** null: never */
  expires_at: number | null;
  /** null: never used */
  last_used_at: number | null;
}

/** A key's whole row, as the check reads it. */
export type KeyRow = Selectable<ApiKeyTable>;

/** The longest lifetime a key may be given, and the longest overlap of a roll. */
export const MAX_LIFETIME_SECONDS = 3650 * 86_400;
export const MAX_OVERLAP_SECONDS = 30 * 86_400;

export interface NewKeyOptions {
  /** default: every scope */
  scopes?: Iterable<Scope>;
  /** seconds from now until the key is refused; default: it never expires */
  expiresIn?: number;
  /** unix seconds (tests give a clock of their own) */
  now?: number;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

const INFO = ['id', 'label', 'scopes', 'created_at', 'expires_at', 'last_used_at'] as const;

function info(row: Pick<KeyRow, (typeof INFO)[number]>): KeyInfo {
  return { ...row, scopes: scopesOf(row.scopes) };
}

async function bumpKeysVersion(db: Kysely<Database>, projectId: string): Promise<void> {
  await db
    .updateTable('projects')
    .set({ keys_version: sql`keys_version + 1` })
    .where('id', '=', projectId)
    .execute();
}

async function insertKey(
  trx: Kysely<Database>,
  projectId: string,
  label: string,
  scopes: string,
  expiresAt: number | null,
  now: number,
): Promise<{ key: string; info: KeyInfo }> {
  const key = generateKey();
  const row = await trx
    .insertInto('api_keys')
    .values({
      project_id: projectId,
      label,
      hash: hashKey(key),
      scopes,
      created_at: now,
      expires_at: expiresAt,
      last_used_at: null,
      revoked_at: null,
    })
    .returning(INFO)
    .executeTakeFirstOrThrow();
  return { key, info: info(row) };
}

/** A new key of the project; `key` is the secret, shown once and never stored. */
export async function createKey(
  storage: Pick<Storage, 'db'>,
  projectId: string,
  label = '',
  options: NewKeyOptions = {},
): Promise<{ id: number; key: string; info: KeyInfo }> {
  const now = options.now ?? nowSeconds();
  const expiresAt = options.expiresIn === undefined ? null : now + options.expiresIn;
  const scopes = scopesText(options.scopes ?? SCOPES);
  const made = await storage.db
    .transaction()
    .execute((trx) => createKeyIn(trx, projectId, label, scopes, expiresAt, now));
  return { id: made.info.id, ...made };
}

/** A new key, in a transaction the caller holds (a project created with its first key). */
export async function createKeyIn(
  trx: Kysely<Database>,
  projectId: string,
  label: string,
  scopes = ALL_SCOPES,
  expiresAt: number | null = null,
  now = nowSeconds(),
): Promise<{ key: string; info: KeyInfo }> {
  await bumpKeysVersion(trx, projectId);
  return insertKey(trx, projectId, label, scopes, expiresAt, now);
}

const ALL_SCOPES = scopesText(SCOPES);

/** Not expired at `now` (a key expires at the second expires_at names). */
const unexpired = (now: number) => (eb: ExpressionBuilder<Database, 'api_keys'>) =>
  eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]);

/** The project's keys that still work (neither revoked nor expired), by id. */
export async function listKeys(
  storage: Pick<Storage, 'db'>,
  projectId: string,
  now = nowSeconds(),
): Promise<KeyInfo[]> {
  const rows = await storage.db
    .selectFrom('api_keys')
    .select(INFO)
    .where('project_id', '=', projectId)
    .where('revoked_at', 'is', null)
    .where(unexpired(now))
    .orderBy('id')
    .execute();
  return rows.map(info);
}

/** One key of the project, by id, whether or not it still works; never its secret. */
export async function findKeyInfo(
  storage: Pick<Storage, 'db'>,
  projectId: string,
  keyId: number,
): Promise<KeyInfo | undefined> {
  const row = await storage.db
    .selectFrom('api_keys')
    .select(INFO)
    .where('project_id', '=', projectId)
    .where('id', '=', keyId)
    .executeTakeFirst();
  return row && info(row);
}

/** The key's whole row, by its id within its project (a download link names its key so). */
export async function findKeyById(db: Kysely<Database>, projectId: string, keyId: number): Promise<KeyRow | undefined> {
  return rowById(db, 'api_keys', projectId, keyId);
}

/** The key's whole row, by the hash of the presented key (the check of checker.ts). */
export async function findKeyByHash(db: Kysely<Database>, hash: string): Promise<KeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
}

export interface KeyTarget {
  keyId: number;
  /** only a key of this project (HTTP); the CLI names keys by id alone */
  projectId?: string;
  now?: number;
}

/** Revokes a key at once; false when no key with that id is left to revoke. */
export async function revokeKey(storage: Pick<Storage, 'db'>, keyId: number): Promise<boolean> {
  return (await revokeTarget(storage, { keyId })) !== undefined;
}

/** Revokes a key that is not revoked yet; undefined when there is none with that id. */
export async function revokeTarget(
  storage: Pick<Storage, 'db'>,
  target: KeyTarget,
): Promise<(KeyInfo & { revoked_at: number }) | undefined> {
  const now = target.now ?? nowSeconds();
  return storage.db.transaction().execute(async (trx) => {
    const row = await selectTarget(trx, target).where('revoked_at', 'is', null).executeTakeFirst();
    if (!row) return undefined;
    await bumpKeysVersion(trx, row.project_id);
    const done = await trx
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', row.id)
      .where('revoked_at', 'is', null) // a revocation that committed meanwhile
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0 ? { ...info(row), revoked_at: now } : undefined;
  });
}

export interface RollOptions extends KeyTarget {
  /** seconds the old key keeps working (0: it stops at once) */
  overlap: number;
  /** runs in the transaction before anything is written; may refuse by throwing */
  check?: (old: KeyInfo) => void;
}

export interface Rolled {
  key: string;
  info: KeyInfo;
  /** the rolled key, with the end of its overlap as expires_at */
  previous: KeyInfo;
}

/**
 * A new key with the old one's label and scopes, and its lifetime (if it had an expiry);
 * the old key then expires at the end of the overlap (or its own expiry, if sooner).
 * Undefined when no live key has that id.
 */
export async function rollKey(storage: Pick<Storage, 'db'>, options: RollOptions): Promise<Rolled | undefined> {
  const now = options.now ?? nowSeconds();
  return storage.db.transaction().execute(async (trx) => {
    const row = await selectTarget(trx, options)
      .where('revoked_at', 'is', null)
      .where(unexpired(now))
      .executeTakeFirst();
    if (!row) return undefined;
    const old = info(row);
    options.check?.(old);
    await bumpKeysVersion(trx, row.project_id);
    const lifetime = row.expires_at === null ? null : row.expires_at - row.created_at;
    const made = await insertKey(
      trx,
      row.project_id,
      row.label,
      row.scopes,
      lifetime === null ? null : now + lifetime,
      now,
    );
    const ends = Math.min(now + options.overlap, row.expires_at ?? Infinity);
    await trx.updateTable('api_keys').set({ expires_at: ends }).where('id', '=', row.id).execute();
    return { ...made, previous: { ...old, expires_at: ends } };
  });
}

function selectTarget(db: Kysely<Database>, target: KeyTarget) {
  let query = db.selectFrom('api_keys').selectAll().where('id', '=', target.keyId);
  if (target.projectId !== undefined) query = query.where('project_id', '=', target.projectId);
  return query;
}

/** Records a use of the key (at most once a minute per key: checker.ts decides when). */
export async function markUsed(db: Kysely<Database>, keyId: number, at: number): Promise<boolean> {
  const write = (d: Kysely<Database>) =>
    d
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', '=', keyId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  // It never waits for a lock (an import's, on SQLite): busy, it is skipped (false), and the
  // next use tries again.
  return writeUnlessBusy(db, write);
}
