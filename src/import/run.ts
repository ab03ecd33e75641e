import type { Kysely } from 'kysely';
import { withBulkLoadCache } from '../db/bulk-load.js';
import type { Database } from '../db/schema.js';
import { ProjectRecord } from '../resources/projects/record.js';
import type { Kind } from '../resources/registry.js';
import { type WriteContext, writeProject } from '../writes/write-project.js';
import type { PlaceFormat } from './problems.js';
import type { ImportChanges, ImportWarning } from './report.js';
import { ImportSession } from './session.js';
import { stagedRun, stagesOutsideTheWriter } from './staged-run.js';
import { checkRecord } from './validate.js';

// What every import format shares (import.ts: JSON and NDJSON; csv.ts: products CSV): its
// options and summary, its failure, and the run of a file's records through one session,
// all or nothing.

export interface ImportSummary {
  projectId: string;
  /** records written (created or changed; not those equal to the stored ones), by kind */
  counts: Record<Kind, number>;
  /** records deleted by the file's deletions, by kind (a category's subtree included) */
  deleted: Record<Kind, number>;
  /** created, updated, unchanged, deleted and the fields changed, by kind */
  changes: ImportChanges;
  /** values that look damaged by a spreadsheet (the first MAX_WARNINGS) */
  warnings: ImportWarning[];
  warningsTotal: number;
}

export interface ImportOptions {
  /** called now and then with the number of records read so far and the share of the file read (0 to 1) */
  onProgress?: (records: number, fraction: number) => void;
  /** called once the whole file is read, with the number of records it held (the project's included) */
  onRead?: (records: number) => void;
  /** deletions older than this many days leave the change log (default: CHANGES_RETENTION_DAYS) */
  retentionDays?: number;
  /** the import is for this project: a file naming another is refused by name, before any write (a CSV, naming none, needs it) */
  project?: string;
  /** a CSV's rows replace whole records (fields left out take their defaults), instead of changing only the columns they have */
  replace?: boolean;
  /** check everything and write nothing: the import runs in full, then rolls back */
  dryRun?: boolean;
  /** stops the import (rolled back, nothing written) at the next records read, or before the commit */
  signal?: AbortSignal;
  /**
   * A server's import: after this many ms of reading and checking records without a turn of
   * the event loop, it lets one run, so that the requests beside the import are answered
   * between slices of it, not after a long stretch (docs/PERFORMANCE.md, "Bulk loads (issue 27)")
   */
  sliceMs?: number;
  /** how messages name the file (default: its path) */
  name?: string;
  /** called when the write of the file's project begins (before anything is written) */
  onWrite?: (ctx: WriteContext) => void;
  /** called inside the write, after every check passed and before the commit: what it writes commits with the import */
  beforeCommit?: (ctx: WriteContext, summary: ImportSummary) => Promise<void>;
}

export class ImportError extends Error {
  constructor(
    readonly problems: string[],
    readonly total = problems.length,
  ) {
    super(problems.length === 1 ? problems[0] : `${total} problems, nothing was imported`);
  }
}

const PROGRESS_EVERY = 10_000;
/** how often (in records) a signal is looked at */
const SIGNAL_EVERY = 500;

/** how often (in records) the clock is read for options.sliceMs */
const CLOCK_EVERY = 16;

/**
 * Called for every record read: progress now and then, the signal, and with
 * options.sliceMs a promise to await now and then (a turn of the event loop).
 */
export function ticker(options: ImportOptions, fraction: (records: number) => number) {
  const { sliceMs } = options;
  // Whether the event loop turned since the slice began (the reading itself may have waited
  // for the file or a batch's write): a slice is time without one.
  let turned = true;
  let since = 0;
  const turn = () => (turned = true);
  return (records: number): Promise<void> | undefined => {
    if (records % SIGNAL_EVERY === 0) options.signal?.throwIfAborted();
    if (records % PROGRESS_EVERY === 0) options.onProgress?.(records, fraction(records));
    if (sliceMs === undefined || records % CLOCK_EVERY !== 0) return undefined;
    if (turned) {
      turned = false;
      since = performance.now();
      setImmediate(turn);
    } else if (performance.now() - since >= sliceMs) return new Promise((resolve) => setImmediate(resolve));
    return undefined;
  };
}

/** A dry run's way out of its write: the summary, with everything rolled back. */
class DryRunDone extends Error {
  constructor(readonly summary: ImportSummary) {
    super('dry run');
  }
}

/**
 * Reads the file into a session, all or nothing: a batch write of the project (src/writes/)
 * when the file names a valid one, else a session that only checks, so that every problem
 * is still reported. `read` reads the whole file each time it is called: a staged import
 * that cannot be merged (staged-run.ts) reads it again inside the write.
 */
export async function run(
  db: Kysely<Database>,
  project: unknown,
  format: PlaceFormat,
  refuse: (id: string, wanted: string) => string,
  options: ImportOptions,
  read: (session: ImportSession) => Promise<number>,
): Promise<ImportSummary> {
  const readAll = async (session: ImportSession): Promise<ImportSummary> => {
    const records = await read(session);
    options.onRead?.(records);
    await session.finish();
    if (!session.ok || !session.projectId) {
      const { listed, count } = session.problems;
      throw new ImportError(listed.length ? listed : ['the file names no project'], count);
    }
    return summaryOf(session);
  };
  const projectId = checkRecord(ProjectRecord, project).length === 0 ? (project as ProjectRecord).id : undefined;
  if (projectId === undefined) return readAll(new ImportSession(format));
  // Refused before anything is read or written: a key of one project never writes another's.
  if (options.project !== undefined && projectId !== options.project)
    throw new ImportError([refuse(projectId, options.project)]);
  if (stagesOutsideTheWriter(db, options)) {
    const staged = await stagedRun(db, projectId, format, options, read, summaryOf);
    if (staged) return staged;
  }
  try {
    const write = await writeProject(
      { db },
      projectId,
      async (ctx) => {
        options.onWrite?.(ctx);
        const summary = await withBulkLoadCache(ctx.db, () => readAll(new ImportSession(format, ctx)));
        options.signal?.throwIfAborted();
        if (options.dryRun) throw new DryRunDone(summary);
        await options.beforeCommit?.(ctx, summary);
        return summary;
      },
      { kind: 'batch', retentionDays: options.retentionDays },
    );
    return write.value;
  } catch (e) {
    if (e instanceof DryRunDone) return e.summary;
    throw e;
  }
}

function summaryOf(session: ImportSession): ImportSummary {
  const { changes, warnings, warningsTotal } = session.report;
  return {
    projectId: session.projectId!,
    counts: session.counts,
    deleted: session.deleted,
    changes,
    warnings,
    warningsTotal,
  };
}
