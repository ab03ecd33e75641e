import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { isPostgres } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { ImportError, type ImportSummary, importFile } from '../import/import.js';
import { RESOURCES } from '../resources/registry.js';
import { cursorBefore } from '../webhooks/cursor.js';
import { removeSpool } from './spool.js';
import {
  type ImportJobRow,
  type ImportProblem,
  type LiveProgress,
  type Outcome,
  claimNext,
  clearSpool,
  failInterrupted,
  findJob,
  finishJob,
  isFinished,
  noImportCounts,
  renewLease,
  requeue,
  requestCancel,
  spoolsInUse,
  cancelQueued,
} from './store.js';

// The import jobs of one server process (docs/ARCHITECTURE.md, "Import jobs"). It runs one
// job at a time: it claims the next job this host can run (store.ts: the oldest waiting job
// of a project whose earlier jobs are done), runs the import on the spooled file in one
// batch write (src/import/import.ts, src/writes/), and records the outcome. A success is
// recorded inside the import's own transaction, so a committed import is never left looking
// unfinished. A new job in this process starts it at once; other processes' jobs, and leases
// run out, are found by polling.
//
// While a job runs, its lease is renewed and its progress written now and then on
// PostgreSQL (another connection). On SQLite the write transaction holds the one writer, so
// the figures stay in memory (`live`) until the end, and the lease is not renewed: other
// processes cannot write meanwhile anyway, and this process never takes its own jobs for
// dead.

export interface RunnerOptions {
  db: Kysely<Database>;
  log?: FastifyBaseLogger;
  /** the spool directory: files older than an hour that no job needs are removed at start */
  spoolDir: string;
  /** how often other processes' jobs and run-out leases are looked for (default 2 s) */
  pollMs?: number;
  /** a running job's lease (default 30 s), renewed every third of it on PostgreSQL */
  leaseMs?: number;
  /** deletions older than this many days leave the change log (the import's batch write) */
  retentionDays?: number;
  /** tests: called when a job is claimed, before its import starts (the signal: it was canceled meanwhile) */
  beforeRun?: (job: ImportJobRow, signal: AbortSignal) => Promise<void>;
}

/** Why a running import was stopped. */
class Stop extends Error {
  constructor(readonly why: 'cancel' | 'shutdown') {
    super(why === 'cancel' ? 'canceled' : 'the server is shutting down');
  }
}

interface Running {
  id: number;
  abort: AbortController;
  live: LiveProgress;
  done: Promise<void>;
}

const PROGRESS_WRITE_MS = 1000;
const ORPHAN_SPOOL_MS = 60 * 60 * 1000;

export class ImportRunner {
  readonly host = hostname();
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly db: Kysely<Database>;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly ended = new EventEmitter();
  private running: Running | undefined;
  private started = false;
  private loop: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RunnerOptions) {
    this.db = options.db;
    this.pollMs = options.pollMs ?? 2000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.ended.setMaxListeners(0);
  }

  /** Marks the jobs of dead processes failed, clears old spool files, and starts taking jobs. */
  async start(): Promise<void> {
    this.started = true;
    await this.recover();
    await this.removeOrphanSpools().catch((err: unknown) =>
      this.options.log?.warn({ err }, 'could not clear old import spool files'),
    );
    this.kick();
  }

  /** Stops taking jobs; a running one is stopped and goes back to its queue (it runs again later). */
  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    this.running?.abort.abort(new Stop('shutdown'));
    await this.loop;
  }

  /** Looks for work now (a job was just queued in this process). */
  kick(): void {
    if (!this.started) return;
    if (this.loop) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.loop = this.drain()
      .catch((err: unknown) => this.options.log?.error({ err }, 'the import runner failed; it tries again shortly'))
      .finally(() => {
        this.loop = undefined;
        if (!this.started) return;
        if (this.again) this.kick();
        else this.timer = setTimeout(() => this.kick(), this.pollMs).unref();
      });
  }

  /** The figures of a job running in this process, newer than its row. */
  live(id: number): LiveProgress | undefined {
    return this.running?.id === id ? this.running.live : undefined;
  }

  /**
   * Waits until the job has finished or `ms` have passed; answers its latest row. A job of
   * this process wakes the wait at once, another process's is polled.
   */
  async waitFor(projectId: string, id: number, ms: number): Promise<ImportJobRow | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const row = await findJob(this.db, projectId, id);
      const left = deadline - Date.now();
      if (!row || isFinished(row.status) || left <= 0) return row;
      await this.endOf(id, Math.min(left, 500));
    }
  }

  /**
   * Cancels a queued or running job: nothing of it is written. Answers the job's row
   * afterwards (`stopping`: another process runs it and has not stopped it yet), or
   * `finished` with the row of a job that had already ended.
   */
  async cancel(
    projectId: string,
    id: number,
  ): Promise<{ row: ImportJobRow; outcome: 'canceled' | 'stopping' | 'finished' } | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await findJob(this.db, projectId, id);
      if (!row) return undefined;
      if (isFinished(row.status)) return { row, outcome: 'finished' };
      if (row.status === 'queued') {
        const canceled = await cancelQueued(this.db, projectId, id, Math.floor(Date.now() / 1000));
        if (!canceled) continue; // claimed meanwhile: it is running now
        await this.forgetSpool(canceled);
        this.ended.emit(String(id));
        return { row: canceled, outcome: 'canceled' };
      }
      const running = this.running;
      if (running?.id === id) {
        running.abort.abort(new Stop('cancel'));
        await running.done;
      } else {
        await requestCancel(this.db, projectId, id);
      }
      const after = await this.waitFor(projectId, id, 10_000);
      if (!after) return undefined;
      const outcome = after.status === 'canceled' ? 'canceled' : isFinished(after.status) ? 'finished' : 'stopping';
      return { row: after, outcome };
    }
    const row = await findJob(this.db, projectId, id);
    return row && { row, outcome: isFinished(row.status) ? 'finished' : 'stopping' };
  }

  private endOf(id: number, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.ended.off(String(id), done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.ended.once(String(id), done);
    });
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      await this.recover();
      while (this.started) {
        const job = await claimNext(this.db, {
          host: this.host,
          owner: this.owner,
          now: Date.now(),
          leaseMs: this.leaseMs,
        });
        if (!job) break;
        await this.run(job);
      }
    } while (this.again && this.started);
  }

  /** Jobs of processes that died mid-import fail ("interrupted; nothing was written"). */
  private async recover(): Promise<void> {
    const failed = await failInterrupted(this.db, this.owner, Date.now());
    for (const job of failed) {
      this.options.log?.warn({ import: job.id }, 'an import left running by a process that died is marked failed');
      await this.forgetSpool(job);
      this.ended.emit(String(job.id));
    }
  }

  private async run(job: ImportJobRow): Promise<void> {
    const id = Number(job.id);
    const abort = new AbortController();
    const live: LiveProgress = { records_read: 0, progress: 0 };
    let finished!: () => void;
    const running: Running = { id, abort, live, done: new Promise((resolve) => (finished = resolve)) };
    this.running = running;
    const postgres = isPostgres(this.db);
    let versionBefore: number | undefined | null = null;
    let committing = false;
    let renewing: Promise<void> | undefined;
    let lastWrite = Date.now();
    // PostgreSQL: the lease and the figures, now and then, on another connection; a cancel
    // asked through another process is read back here.
    const renew = () => {
      if (!postgres || renewing) return;
      lastWrite = Date.now();
      renewing = renewLease(this.db, id, this.owner, Date.now() + this.leaseMs, { ...live })
        .then((r) => {
          if (r?.cancelRequested) abort.abort(new Stop('cancel'));
        })
        .catch((err: unknown) => this.options.log?.warn({ err, import: id }, 'could not renew an import lease'))
        .finally(() => (renewing = undefined));
    };
    const heartbeat = setInterval(renew, Math.max(100, Math.floor(this.leaseMs / 3))).unref();
    const outcome = (o: Omit<Outcome, 'now' | 'cursor_before'>): Outcome => ({
      ...o,
      now: Math.floor(Date.now() / 1000),
      cursor_before: versionBefore === null ? null : cursorBefore(versionBefore),
    });
    try {
      await this.options.beforeRun?.(job, abort.signal);
      abort.signal.throwIfAborted();
      const summary = await importFile(this.db, job.spool_path ?? '', {
        project: job.project_id,
        dryRun: Number(job.dry_run) === 1,
        signal: abort.signal,
        name: 'body',
        retentionDays: this.options.retentionDays,
        onProgress: (records, fraction) => {
          live.records_read = records;
          live.progress = Math.min(0.99, fraction);
          if (Date.now() - lastWrite >= PROGRESS_WRITE_MS) renew();
        },
        onRead: (records) => (live.records_read = records),
        onWrite: (ctx) => (versionBefore = ctx.versionBefore),
        // The success commits with the records: never an import written but shown unfinished.
        beforeCommit: (ctx, s) => {
          committing = true;
          return finishJob(ctx.db, id, outcome(succeeded(s, live.records_read)));
        },
      });
      if (Number(job.dry_run) === 1) await finishJob(this.db, id, outcome(succeeded(summary, live.records_read)));
    } catch (e) {
      // Past beforeCommit the import may have committed, its success with it; what failed
      // came after (the planner statistics' refresh): the import stands.
      if (committing && (await findJob(this.db, job.project_id, id))?.status === 'succeeded') {
        this.options.log?.warn({ err: e, import: id }, 'a failure after an import committed');
        return;
      }
      const reason: unknown = abort.signal.aborted ? abort.signal.reason : undefined;
      if (reason instanceof Stop && reason.why === 'shutdown') {
        await requeue(this.db, id, this.owner);
        return;
      }
      const read = live.records_read;
      if (reason instanceof Stop) {
        await finishJob(
          this.db,
          id,
          outcome({ status: 'canceled', records_read: read, counts: null, errors: [], errors_total: 0 }),
        );
      } else if (e instanceof ImportError) {
        await finishJob(
          this.db,
          id,
          outcome({
            status: 'failed',
            records_read: read,
            counts: null,
            errors: e.problems.map(problemOf),
            errors_total: e.total,
          }),
        );
      } else {
        this.options.log?.error({ err: e, import: id }, 'an import failed on the server');
        const errors = [{ place: 'import', message: 'failed on the server; nothing was written (the log says why)' }];
        await finishJob(
          this.db,
          id,
          outcome({ status: 'failed', records_read: read, counts: null, errors, errors_total: 1 }),
        );
      }
    } finally {
      clearInterval(heartbeat);
      await renewing;
      this.running = undefined;
      if (job.spool_path && !(abort.signal.reason instanceof Stop && abort.signal.reason.why === 'shutdown'))
        await this.forgetSpool(job).catch((err: unknown) =>
          this.options.log?.warn({ err, import: id }, 'could not remove an import spool file'),
        );
      finished();
      this.ended.emit(String(id));
    }
  }

  /** Removes a finished job's spool file, when it lies on this host's disk. */
  private async forgetSpool(job: Pick<ImportJobRow, 'id' | 'spool_host' | 'spool_path'>): Promise<void> {
    if (!job.spool_path || job.spool_host !== this.host) return;
    await removeSpool(job.spool_path);
    await clearSpool(this.db, Number(job.id));
  }

  /** Spool files left by a process that died between an upload and its job. */
  private async removeOrphanSpools(): Promise<void> {
    const names = await readdir(this.options.spoolDir).catch(() => [] as string[]);
    if (names.length === 0) return;
    const inUse = await spoolsInUse(this.db, this.host);
    for (const name of names) {
      const path = join(this.options.spoolDir, name);
      if (inUse.has(path)) continue;
      const info = await stat(path).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > ORPHAN_SPOOL_MS) await removeSpool(path);
    }
  }
}

function succeeded(summary: ImportSummary, records: number): Omit<Outcome, 'now' | 'cursor_before'> {
  const counts = noImportCounts();
  for (const { kind } of RESOURCES) counts[kind] = { upserted: summary.counts[kind], deleted: summary.deleted[kind] };
  return { status: 'succeeded', records_read: records, counts, errors: [], errors_total: 0 };
}

/** `products[12].price: must be …` -> its place and its message. */
function problemOf(text: string): ImportProblem {
  const at = text.indexOf(': ');
  if (at <= 0) return { place: 'body', message: text };
  return { place: text.slice(0, at), message: text.slice(at + 2) };
}
