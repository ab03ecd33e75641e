import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Storage } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { hashKey } from '../keys/token.js';

// One-time download links of exports (docs/API.md, "Exports"; migration 022). A browser
// cannot add an Authorization header to a download it leaves to itself, and an export
// fetched by a script sits whole in the tab before it is saved. So a key asks for a link
// (its scopes checked as the export itself checks them); the link's token stands for that
// key once, for a minute, for that file and that exact query. Only the token's hash is kept,
// and it is deleted on its first use, whatever the outcome.

/** How long a link works: long enough for a browser to follow it, too short to be passed on. */
export const LINK_SECONDS = 60;
export const TOKEN_PREFIX = 'sfd_';

export interface LinkTarget {
  projectId: string;
  /** the export's file name, e.g. `orders.csv` */
  file: string;
  /** linkQuery() of the export's address */
  query: string;
}

/** An export's query as a link binds it: every parameter but the token, sorted. */
export function linkQuery(url: string): string {
  const at = url.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
  params.delete('download_token');
  params.sort();
  return params.toString();
}

/** Makes a link for `keyId`; answers its token (shown this once) and when it stops working. */
export async function createLink(
  storage: Pick<Storage, 'db'>,
  target: LinkTarget & { keyId: number; now: number },
): Promise<{ token: string; expiresAt: number }> {
  const { db } = storage;
  const token = `${TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
  const expiresAt = target.now + LINK_SECONDS;
  // Links are few and short-lived: each new one sweeps away the expired ones.
  await db.deleteFrom('download_links').where('expires_at', '<=', target.now).execute();
  await db
    .insertInto('download_links')
    .values({
      token_hash: hashKey(token),
      project_id: target.projectId,
      key_id: target.keyId,
      file: target.file,
      query: target.query,
      expires_at: expiresAt,
    })
    .execute();
  return { token, expiresAt };
}

/** The id of the key a live link of exactly this target stands for; the link is used up. */
export async function redeemLink(
  db: Kysely<Database>,
  token: string,
  target: LinkTarget & { now: number },
): Promise<number | undefined> {
  const row = await db
    .deleteFrom('download_links')
    .where('project_id', '=', target.projectId)
    .where('token_hash', '=', hashKey(token))
    .returning(['key_id', 'file', 'query', 'expires_at'])
    .executeTakeFirst();
  if (!row || Number(row.expires_at) <= target.now) return undefined;
  return row.file === target.file && row.query === target.query ? Number(row.key_id) : undefined;
}
