import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

// A restore (src/db/restore.ts) moves each project's data_version forward past every version
// the lost database may have given out after its backup, and records the skipped range in
// `restores` (migration 020). A cursor inside such a range was made by that lost history:
// entries it read are not in this database, so it is 410 and the reader starts again. A
// cursor at or below the backup's version read what the backup holds and goes on as before.

/** Whether `seq` lies strictly between a restore's two versions (the second is the restored database's own). */
export async function inRestoreGap(db: Kysely<Database>, projectId: string, seq: number): Promise<boolean> {
  const gap = await db
    .selectFrom('restores')
    .select('version_after')
    .where('project_id', '=', projectId)
    .where('version_before', '<', seq)
    .where('version_after', '>', seq)
    .executeTakeFirst();
  return gap !== undefined;
}
