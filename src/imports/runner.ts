import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type Running, Stop, runJob, startRunning, stoppedForShutdown } from './run-job.js';
import { removeSpool } from './spool.js';
import {
  type ImportJobRow,
  type LiveProgress,
  claimNext,
  clearSpool,
  failInterrupted,
  type NewJob,
  createJob,
  findJob,
  listJobs,
  isFinished,
  requestCancel,
  spoolsInUse,
  cancelQueued,
} from './store.js';

// The import jobs of one server process (docs/ARCHITECTURE.md, "Import jobs"). It runs one
// job at a time: it claims the next job this host can run (store.ts: the oldest waiting job
// of a project whose earlier jobs are done), runs it (run-job.ts: the import of the spooled
// file in one batch write, its outcome recorded), and removes its spool file. A new job in
// this process starts it at once; other processes' jobs, and leases run out, are found by
// polling. On SQLite a running job's lease is not renewed: other processes cannot write
// meanwhile anyway, and this process never takes its own jobs for dead.

export interface RunnerOptions {
  db: Kysely<Database>;
  /** where the imports write, if not `db`: a connection without the serving statement timeout */
  importDb?: Kysely<Database>;
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

  /** Queues an upload's job, and runs it at once if this runner is free. */
  async queue(job: NewJob): Promise<ImportJobRow> {
    const row = await createJob(this.db, job);
    this.kick();
    return row;
  }

  /** One job of the project; the latest jobs of the project (routes read jobs here, on the queue's database). */
  find(projectId: string, id: number): Promise<ImportJobRow | undefined> {
    return findJob(this.db, projectId, id);
  }

  list(projectId: string): Promise<ImportJobRow[]> {
    return listJobs(this.db, projectId);
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
    const running = startRunning(Number(job.id));
    this.running = running;
    try {
      await runJob(job, running, {
        db: this.db,
        importDb: this.options.importDb,
        owner: this.owner,
        leaseMs: this.leaseMs,
        log: this.options.log,
        retentionDays: this.options.retentionDays,
        beforeRun: this.options.beforeRun,
      });
    } finally {
      // The file goes before the job counts as let go (`live`), so that once this process
      // no longer runs it, nothing of it is left.
      if (job.spool_path && !stoppedForShutdown(running))
        await this.forgetSpool(job).catch((err: unknown) =>
          this.options.log?.warn({ err, import: running.id }, 'could not remove an import spool file'),
        );
      this.running = undefined;
      running.finish();
      this.ended.emit(String(running.id));
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
