import type { Kysely } from 'kysely';
import { withBulkLoadCache } from '../db/bulk-load.js';
import type { Database } from '../db/schema.js';
import { isThreadedSqlite } from '../db/sqlite-threads-dialect.js';
import { type WriteContext, writeProject } from '../writes/write-project.js';
import type { PlaceFormat } from './problems.js';
import { ImportError, type ImportOptions, type ImportSummary } from './run.js';
import { ImportSession, NotStaged } from './session.js';
import { StagedFile } from './staged-file.js';

// SQLite has one writer for the whole file: an import that reads, checks and compares its
// records inside its write holds every other project's writes for its whole run. A staged
// import does all of that first, in a read-only transaction (a snapshot, on a reader
// thread), keeping the records that change in a staging database of its own (staged-file.ts);
// it takes the writer only to merge them, through the write unit like every import, all or
// nothing (docs/PERFORMANCE.md, "Many shops on one deployment (issue 38)").
//
// The merge writes what a single transaction would have: it first checks that the project
// has not moved since the snapshot (its data_version and incarnation, which every write of
// it changes). If it has, or the file holds what a snapshot cannot stand for (a deletion,
// which changes what later records are compared with) or has problems (whose reference
// checks need the records written), nothing staged is used: the import runs whole inside
// the write, as on PostgreSQL, whose writers of other projects do not wait for it anyway.

/** Whether an import through `db` is staged: SQLite served by threads (a snapshot beside the writer), not a dry run. */
export function stagesOutsideTheWriter(db: Kysely<Database>, options: ImportOptions): boolean {
  return isThreadedSqlite(db) && !options.dryRun;
}

/** The project's life and version as the snapshot saw them (undefined: no such project). */
interface Life {
  incarnation: string;
  version: number;
}

async function lifeOf(db: Kysely<Database>, projectId: string): Promise<Life | undefined> {
  const row = await db
    .selectFrom('projects')
    .select(['data_version', 'incarnation'])
    .where('id', '=', projectId)
    .executeTakeFirst();
  return row && { incarnation: row.incarnation, version: Number(row.data_version) };
}

/** The snapshot's stand-in for a write: it reads; nothing may write through it. */
function snapshotContext(db: Kysely<Database>, projectId: string): WriteContext {
  const refuse = () => {
    throw new Error('a staged import writes only in its merge');
  };
  return {
    db,
    projectId,
    versionBefore: undefined,
    changed: refuse,
    changedInPlace: refuse,
    changedAllProducts: refuse,
    tally: refuse,
    count: refuse,
  };
}

/** The project moved between the snapshot and the merge. */
class Moved extends Error {}

/**
 * The import staged, then merged; undefined when it cannot be (see above), and then nothing
 * was written: the caller runs it whole inside the write.
 */
export async function stagedRun(
  db: Kysely<Database>,
  projectId: string,
  format: PlaceFormat,
  options: ImportOptions,
  read: (session: ImportSession) => Promise<number>,
  summarize: (session: ImportSession) => ImportSummary,
): Promise<ImportSummary | undefined> {
  const file = new StagedFile();
  try {
    const staged = await stage(db, projectId, format, options, read, file);
    if (!staged) return undefined;
    const { session, life } = staged;
    options.signal?.throwIfAborted();
    const write = await writeProject(
      { db },
      projectId,
      async (ctx) => {
        // The write unit says the version before its own bump; the incarnation tells a project
        // deleted and made again, whose versions start again.
        const now = await lifeOf(ctx.db, projectId);
        if (now?.incarnation !== life?.incarnation || ctx.versionBefore !== life?.version) throw new Moved();
        options.onWrite?.(ctx);
        await withBulkLoadCache(ctx.db, () => session.merge(ctx));
        if (!session.ok) throw new ImportError(session.problems.listed, session.problems.count);
        options.signal?.throwIfAborted();
        const summary = summarize(session);
        await options.beforeCommit?.(ctx, summary);
        return summary;
      },
      { kind: 'batch', retentionDays: options.retentionDays },
    );
    return write.value;
  } catch (e) {
    if (e instanceof Moved) return undefined;
    throw e;
  } finally {
    file.close();
  }
}

/** Reads, checks and compares the file in a snapshot, keeping what changes in `file`. */
async function stage(
  db: Kysely<Database>,
  projectId: string,
  format: PlaceFormat,
  options: ImportOptions,
  read: (session: ImportSession) => Promise<number>,
  file: StagedFile,
): Promise<{ session: ImportSession; life: Life | undefined } | undefined> {
  try {
    return await db
      .transaction()
      .setAccessMode('read only')
      .execute(async (trx) => {
        const life = await lifeOf(trx, projectId);
        const session = new ImportSession(format, snapshotContext(trx, projectId), file);
        const records = await read(session);
        options.onRead?.(records);
        await session.finish();
        return session.ok && session.projectId ? { session, life } : undefined;
      });
  } catch (e) {
    if (e instanceof NotStaged) return undefined;
    throw e;
  }
}
