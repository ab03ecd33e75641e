import type { Kysely } from 'kysely';
import type { Reads } from '../db/reads.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../errors.js';
import type { ResourceDescriptor } from '../resources/descriptor.js';
import { type Cursor, encodeCursor } from './cursor.js';
import type { ChangeAction, ChangeType } from './entry.js';
import { brokenOrdering } from './ordering.js';
import { inRestoreGap } from './restore-gaps.js';

// One page of the change feed (docs/API.md, "The change feed"), read in one snapshot
// (`reads.exactSnapshot`): the project's data_version, the log and the records all as of one
// moment, on PostgreSQL a REPEATABLE READ transaction, on SQLite a read transaction (WAL gives
// it one snapshot).
//
// The log is ordered by (seq, type, id). Each asked type is read on its own index
// (changes_by_type_seq) from the cursor on, at most limit + 1 rows, and the lists are merged:
// a page costs the same whatever the size of the log or of the catalog. The records of the
// page are then fetched by primary key, one query per type (each resource's presentByIds).
//
// `next`: after a full page, the last entry's place; else the project's data_version in the
// snapshot. Every change committed later gets a higher seq (src/changes/record.ts), so
// asking with `next` returns exactly what changed after this answer.

export interface FeedEntry {
  type: ChangeType;
  id: number;
  action: ChangeAction;
  record: unknown;
  changed_at: number;
}

export interface FeedPage {
  data: FeedEntry[];
  next: string;
  has_more: boolean;
}

export interface FeedQuery {
  projectId: string;
  cursor: Cursor;
  limit: number;
  /** the resources asked for, in any order */
  types: readonly ResourceDescriptor[];
  includeHidden: boolean;
  /** FOR TESTS ONLY: read as with a broken change order (ordering.ts); default, this process's setting */
  brokenOrder?: boolean;
}

interface LogRow {
  type: string;
  id: number;
  seq: number;
  action: ChangeAction;
  changed_at: number;
}

export async function readChanges(reads: Reads, q: FeedQuery): Promise<FeedPage> {
  return reads.exactSnapshot(async (trx) => {
    const project = await trx
      .selectFrom('projects')
      .select(['data_version', 'changes_floor', 'currency', 'incarnation'])
      .where('id', '=', q.projectId)
      .executeTakeFirst();
    if (!project) throw new ApiError(404, `project ${JSON.stringify(q.projectId)} not found`);
    const version = Number(project.data_version);
    const broken = q.brokenOrder ?? brokenOrdering();
    if (q.cursor.seq > 0 && q.cursor.seq < Number(project.changes_floor))
      throw new ApiError(
        410,
        'this cursor is older than the deletions the feed keeps (CHANGES_RETENTION_DAYS): start again without since',
      );
    // A cursor of another life (a project deleted and made again) names it, or a future seq.
    const foreign = q.cursor.incarnation !== undefined && q.cursor.incarnation !== project.incarnation;
    if (foreign || (q.cursor.seq > version && !broken))
      throw new ApiError(410, 'this cursor does not belong to this project: start again without since');
    if (q.cursor.seq > 0 && (await inRestoreGap(trx, q.projectId, q.cursor.seq)))
      throw new ApiError(
        410,
        'this cursor is newer than the backup this database was restored from: start again without since',
      );

    const rows: LogRow[] = [];
    for (const resource of q.types) rows.push(...(await logAfter(trx, q, resource.type)));
    rows.sort(byPlace);
    const hasMore = rows.length > q.limit;
    const page = hasMore ? rows.slice(0, q.limit) : rows;

    const records = new Map<string, Map<number, unknown>>();
    for (const resource of q.types) {
      const ids = page.filter((r) => r.type === resource.type && r.action === 'upsert').map((r) => Number(r.id));
      if (ids.length === 0) continue;
      // As the lists show them: hidden products with fetch_hidden, active plans only.
      const viewer = {
        projectId: q.projectId,
        currency: project.currency,
        includeHidden: q.includeHidden,
        everyStatus: false,
      };
      records.set(resource.type, await resource.presentByIds(trx, viewer, ids));
    }
    const data = page.map((r): FeedEntry => {
      const record = records.get(r.type)?.get(Number(r.id));
      return {
        type: r.type as ChangeType,
        id: Number(r.id),
        action: record === undefined ? 'delete' : 'upsert',
        record: record ?? null,
        changed_at: Number(r.changed_at),
      };
    });
    const last = page[page.length - 1];
    let next: string;
    const life = project.incarnation;
    if (hasMore) next = encodeCursor(Number(last.seq), { type: last.type, id: Number(last.id) }, life);
    // Ordering broken on purpose (src/changes/ordering.ts): the naive cursor, the last entry.
    else if (broken)
      next = last
        ? encodeCursor(Number(last.seq), { type: last.type, id: Number(last.id) }, life)
        : encodeCursor(q.cursor.seq, q.cursor.after, life);
    else next = encodeCursor(Math.max(version, q.cursor.seq), undefined, life);
    return { data, next, has_more: hasMore };
  });
}

/** The log of one type after the cursor, in (seq, id) order: at most limit + 1 rows. */
async function logAfter(trx: Kysely<Database>, q: FeedQuery, type: ChangeType): Promise<LogRow[]> {
  const { seq, after } = q.cursor;
  let query = trx
    .selectFrom('changes')
    .select(['type', 'id', 'seq', 'action', 'changed_at'])
    .where('project_id', '=', q.projectId)
    .where('type', '=', type);
  // (seq, type, id) > (cursor seq, cursor type, cursor id), with the type fixed.
  if (!after || type < after.type) query = query.where('seq', '>', seq);
  else if (type > after.type) query = query.where('seq', '>=', seq);
  else
    query = query.where((eb) => eb.or([eb('seq', '>', seq), eb.and([eb('seq', '=', seq), eb('id', '>', after.id)])]));
  return await query
    .orderBy('seq')
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
}

function byPlace(a: LogRow, b: LogRow): number {
  return (
    Number(a.seq) - Number(b.seq) || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) || Number(a.id) - Number(b.id)
  );
}
