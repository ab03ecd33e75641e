import type { Kysely } from 'kysely';
import { encodeCursor } from '../changes/cursor.js';
import type { Database } from '../db/schema.js';

// The change-feed cursor that import.completed carries: GET /changes/?since=<cursor> then
// returns exactly what the import (and anything committed after it) changed. Everything up
// to the project's data_version before the import was committed before it; 0 for a project
// the import created. It names the project's life (src/changes/cursor.ts), read through `db`
// (the write's transaction, where the project exists even when the write made it).
export async function cursorBefore(
  db: Kysely<Database>,
  projectId: string,
  dataVersion: number | undefined,
): Promise<string> {
  const row = await db.selectFrom('projects').select('incarnation').where('id', '=', projectId).executeTakeFirst();
  return encodeCursor(dataVersion ?? 0, undefined, row?.incarnation);
}
