import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { writesBesideATransaction } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { ImportError, type ImportSummary, importFile } from '../import/import.js';
import { RESOURCES } from '../resources/registry.js';
import { cursorBefore } from '../webhooks/cursor.js';
import {
  type ImportJobRow,
  type ImportProblem,
  type LiveProgress,
  type Outcome,
  findJob,
  finishJob,
  renewLease,
  requeue,
} from './store.js';
import { noImportCounts } from './present.js';

// One import job, run by this process's runner (runner.ts): the import of its spooled file
// in one batch write, and its outcome recorded. A success is recorded inside the import's own
// transaction, so a committed import is never left looking unfinished. While it runs, its
// lease is renewed and its progress written now and then where another connection can write
// beside the import's transaction (PostgreSQL); on SQLite the transaction holds the one
// writer, so the figures stay in memory (`live`) until the end.

const PROGRESS_WRITE_MS = 1000;
/** the longest stretch of an import's reading before the server's requests get a turn (ImportOptions.sliceMs) */
const IMPORT_SLICE_MS = 10;

/** Why a running import was stopped. */
export class Stop extends Error {
  constructor(readonly why: 'cancel' | 'shutdown') {
    super(why === 'cancel' ? 'canceled' : 'the server is shutting down');
  }
}

/** A job running in this process: its stop switch, its figures, its end. */
export interface Running {
  id: number;
  abort: AbortController;
  live: LiveProgress;
  done: Promise<void>;
  finish(): void;
}

export function startRunning(id: number): Running {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { id, abort: new AbortController(), live: { records_read: 0, progress: 0 }, done, finish };
}

/** Stopped because the process is shutting down: the job goes back to its queue, its file stays. */
export function stoppedForShutdown(running: Running): boolean {
  const reason: unknown = running.abort.signal.reason;
  return reason instanceof Stop && reason.why === 'shutdown';
}

export interface JobContext {
  db: Kysely<Database>;
  /** where the import writes, if not `db` (runner.ts) */
  importDb?: Kysely<Database>;
  /** this process's lease owner */
  owner: string;
  leaseMs: number;
  log?: FastifyBaseLogger;
  retentionDays?: number;
  /** tests: called before the import starts (the signal: it was canceled meanwhile) */
  beforeRun?: (job: ImportJobRow, signal: AbortSignal) => Promise<void>;
}

export async function runJob(job: ImportJobRow, running: Running, ctx: JobContext): Promise<void> {
  const { db, log } = ctx;
  const { id, abort, live } = running;
  const dryRun = Number(job.dry_run) === 1;
  let versionBefore: number | undefined | null = null;
  let committing = false;
  let renewing: Promise<void> | undefined;
  let lastWrite = Date.now();
  // The lease and the figures, now and then, on another connection; a cancel asked through
  // another process is read back here.
  const renew = () => {
    if (!writesBesideATransaction(db) || renewing) return;
    lastWrite = Date.now();
    renewing = renewLease(db, id, ctx.owner, Date.now() + ctx.leaseMs, { ...live })
      .then((r) => {
        if (r?.cancelRequested) abort.abort(new Stop('cancel'));
      })
      .catch((err: unknown) => log?.warn({ err, import: id }, 'could not renew an import lease'))
      .finally(() => (renewing = undefined));
  };
  const heartbeat = setInterval(renew, Math.max(100, Math.floor(ctx.leaseMs / 3))).unref();
  const finish = async (o: Omit<Outcome, 'now' | 'cursor_before'>, into: Kysely<Database> = db) =>
    finishJob(into, id, {
      ...o,
      now: Math.floor(Date.now() / 1000),
      cursor_before: versionBefore === null ? null : await cursorBefore(into, job.project_id, versionBefore),
    });
  try {
    await ctx.beforeRun?.(job, abort.signal);
    abort.signal.throwIfAborted();
    const summary = await importFile(ctx.importDb ?? db, job.spool_path ?? '', {
      project: job.project_id,
      dryRun,
      replace: job.mode === 'replace',
      signal: abort.signal,
      name: 'body',
      retentionDays: ctx.retentionDays,
      sliceMs: IMPORT_SLICE_MS,
      onProgress: (records, fraction) => {
        live.records_read = records;
        live.progress = Math.min(0.99, fraction);
        if (Date.now() - lastWrite >= PROGRESS_WRITE_MS) renew();
      },
      onRead: (records) => (live.records_read = records),
      onWrite: (write) => (versionBefore = write.versionBefore),
      // The success commits with the records: never an import written but shown unfinished.
      beforeCommit: async (write, s) => {
        // The project was deleted meanwhile, its job row with it: the import must not bring
        // it back to life (as a new project holding the file's records).
        if (!(await findJob(write.db, job.project_id, id)))
          throw new Error('the project was deleted during the import');
        committing = true;
        return finish(succeeded(s, live.records_read), write.db);
      },
    });
    if (dryRun) await finish(succeeded(summary, live.records_read));
  } catch (e) {
    // Past beforeCommit the import may have committed, its success with it; what failed
    // came after (the planner statistics' refresh): the import stands.
    if (committing && (await findJob(db, job.project_id, id))?.status === 'succeeded') {
      log?.warn({ err: e, import: id }, 'a failure after an import committed');
      return;
    }
    if (stoppedForShutdown(running)) return requeue(db, id, ctx.owner);
    const failed = { records_read: live.records_read, counts: null, changes: null, warnings: [], warnings_total: 0 };
    if (abort.signal.reason instanceof Stop)
      await finish({ status: 'canceled', ...failed, errors: [], errors_total: 0 });
    else if (e instanceof ImportError)
      await finish({ status: 'failed', ...failed, errors: e.problems.map(problemOf), errors_total: e.total });
    else {
      log?.error({ err: e, import: id }, 'an import failed on the server');
      const errors = [{ place: 'import', message: 'failed on the server; nothing was written (the log says why)' }];
      await finish({ status: 'failed', ...failed, errors, errors_total: 1 });
    }
  } finally {
    clearInterval(heartbeat);
    await renewing;
  }
}

function succeeded(summary: ImportSummary, records: number): Omit<Outcome, 'now' | 'cursor_before'> {
  const counts = noImportCounts();
  for (const { kind } of RESOURCES) counts[kind] = { upserted: summary.counts[kind], deleted: summary.deleted[kind] };
  return {
    status: 'succeeded',
    records_read: records,
    counts,
    changes: summary.changes,
    errors: [],
    errors_total: 0,
    warnings: summary.warnings,
    warnings_total: summary.warningsTotal,
  };
}

/** `products[12].price: must be …` -> its place and its message. */
function problemOf(text: string): ImportProblem {
  const at = text.indexOf(': ');
  if (at <= 0) return { place: 'body', message: text };
  return { place: text.slice(0, at), message: text.slice(at + 2) };
}
