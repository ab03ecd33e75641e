import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

// After a restore, the lost database may have given out versions above the backup's: in
// Storefront-Version headers, ETags, cache keys and change-feed cursors. The restored one must
// never give out the same numbers for other states, so each project's data_version moves
// forward by RESTORE_VERSION_GAP, and the skipped range is recorded (migration 020): the feed
// answers a cursor inside it 410 (src/changes/restore-gaps.ts). 10^12 versions are more writes
// than any project makes between a backup and its restore (a write bumps once, an import of a
// million records too); Storefront-Version takes up to 15 digits, room for 999 restores.

export const RESTORE_VERSION_GAP = 1_000_000_000_000;

/** Moves every project past the versions a lost history may have used; one transaction. */
export async function skipLostVersions(db: Kysely<Database>, now = Math.floor(Date.now() / 1000)): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('restores')
      .columns(['project_id', 'version_before', 'version_after', 'restored_at'])
      .expression(
        trx
          .selectFrom('projects')
          .select([
            'id',
            'data_version',
            sql<number>`data_version + ${sql.lit(RESTORE_VERSION_GAP)}`.as('after'),
            sql<number>`${sql.lit(now)}`.as('restored_at'),
          ]),
      )
      .execute();
    await trx
      .updateTable('projects')
      .set({ data_version: sql`data_version + ${sql.lit(RESTORE_VERSION_GAP)}` })
      .execute();
  });
}
