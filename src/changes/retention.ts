import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

// Deletions stay in the change log at least CHANGES_RETENTION_DAYS (src/config.ts), so that
// a reader who polls less often than that still learns of them. Older ones are purged, and
// the project's changes_floor rises to the highest seq purged: a cursor below it may have
// missed a deletion, and the feed answers it 410 gone (the reader starts again without a
// cursor). Upserts are never purged: each record keeps one row, replaced by its next
// change, so they are bounded by the records themselves.
//
// Deletions are made only by imports and `storefront delete`, so those transactions purge
// (after bumping data_version, holding the project's lock): no deletion outlives its time by
// more than the interval between two of them, and a project nobody deletes from never
// grows a backlog. The partial index changes_deletions_by_age finds the old ones.

export const DAY = 86_400;

export async function purgeOldDeletions(
  trx: Kysely<Database>,
  projectId: string,
  retentionDays: number,
  now = Math.floor(Date.now() / 1000),
): Promise<number> {
  const cutoff = now - retentionDays * DAY;
  const old = trx
    .selectFrom('changes')
    .where('project_id', '=', projectId)
    .where('action', '=', 'delete')
    .where('changed_at', '<', cutoff);
  const found = await old
    .select((eb) => [eb.fn.max('seq').as('top'), eb.fn.countAll<number>().as('n')])
    .executeTakeFirst();
  if (!found || found.top === null || Number(found.n) === 0) return 0;
  await trx
    .deleteFrom('changes')
    .where('project_id', '=', projectId)
    .where('action', '=', 'delete')
    .where('changed_at', '<', cutoff)
    .execute();
  const top = Number(found.top);
  await trx
    .updateTable('projects')
    .set({ changes_floor: top })
    .where('id', '=', projectId)
    .where('changes_floor', '<', top)
    .execute();
  return Number(found.n);
}
