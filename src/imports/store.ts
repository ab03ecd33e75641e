import type { Kysely, Selectable } from 'kysely';
import { rowById } from '../db/by-id.js';
import { skipLocked } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import type { ImportJobTable } from '../db/schema-queues.js';
import type { ImportChanges, ImportWarning } from '../import/report.js';
import type { ImportCounts } from './present.js';
import type { ImportFormat } from './spool.js';

// The import_jobs table (migration 013): the jobs, their queue and their leases. Every
// function takes the database first, so that one can run inside a transaction (the import
// writes its own success in the transaction of its records: src/imports/runner.ts).

export type ImportJobRow = Selectable<ImportJobTable>;
export type ImportStatus = ImportJobTable['status'];

export const FINISHED: readonly ImportStatus[] = ['succeeded', 'failed', 'canceled'];
export const LISTED_JOBS = 100;

export interface ImportProblem {
  place: string;
  message: string;
}

export function isFinished(status: ImportStatus): boolean {
  return FINISHED.includes(status);
}

/** Live figures of a job running in this process, newer than its row. */
export interface LiveProgress {
  records_read: number;
  progress: number;
}

export interface NewJob {
  projectId: string;
  format: ImportFormat;
  bytes: number;
  dryRun: boolean;
  /** a CSV's rows: only their columns (merge) or whole records (replace) */
  mode: 'merge' | 'replace';
  spoolHost: string;
  spoolPath: string;
  now: number;
}

export async function createJob(db: Kysely<Database>, job: NewJob): Promise<ImportJobRow> {
  return db
    .insertInto('import_jobs')
    .values({
      project_id: job.projectId,
      status: 'queued',
      dry_run: job.dryRun ? 1 : 0,
      mode: job.mode,
      format: job.format,
      bytes: job.bytes,
      created_at: job.now,
      spool_host: job.spoolHost,
      spool_path: job.spoolPath,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findJob(db: Kysely<Database>, projectId: string, id: number): Promise<ImportJobRow | undefined> {
  return rowById(db, 'import_jobs', projectId, id);
}

/** The project's latest jobs, newest first. */
export async function listJobs(db: Kysely<Database>, projectId: string): Promise<ImportJobRow[]> {
  return db
    .selectFrom('import_jobs')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id', 'desc')
    .limit(LISTED_JOBS)
    .execute();
}

export interface Lease {
  host: string;
  owner: string;
  /** milliseconds */
  now: number;
  leaseMs: number;
}

/**
 * Takes the next job this host can run: the oldest queued job whose project has no older
 * job queued or running (one import of a project at a time, in order). One statement: on
 * PostgreSQL the candidate row is locked and rows other processes are claiming are skipped
 * (SKIP LOCKED); a job they skip is still the oldest of its project, so no later one of
 * that project can be taken in its place. SQLite has one writer.
 */
export async function claimNext(db: Kysely<Database>, lease: Lease): Promise<ImportJobRow | undefined> {
  let next = db
    .selectFrom('import_jobs as j')
    .select('j.id')
    .where('j.status', '=', 'queued')
    .where('j.spool_host', '=', lease.host)
    .where('j.id', '=', (eb) =>
      eb
        .selectFrom('import_jobs as o')
        .select((o) => o.fn.min('o.id').as('first'))
        .whereRef('o.project_id', '=', 'j.project_id')
        .where('o.status', 'in', ['queued', 'running']),
    )
    .orderBy('j.id')
    .limit(1);
  next = skipLocked(db, next, 'j');
  return db
    .updateTable('import_jobs')
    .set({
      status: 'running',
      started_at: Math.floor(lease.now / 1000),
      lease_owner: lease.owner,
      lease_until: lease.now + lease.leaseMs,
    })
    .where('id', 'in', next)
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** Extends a running job's lease; answers whether a cancel was asked meanwhile (undefined: no longer ours). */
export async function renewLease(
  db: Kysely<Database>,
  id: number,
  owner: string,
  until: number,
  live: LiveProgress,
): Promise<{ cancelRequested: boolean } | undefined> {
  const row = await db
    .updateTable('import_jobs')
    .set({ lease_until: until, records_read: live.records_read, progress: live.progress })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .returning('cancel_requested')
    .executeTakeFirst();
  return row && { cancelRequested: Number(row.cancel_requested) === 1 };
}

export interface Outcome {
  status: 'succeeded' | 'failed' | 'canceled';
  records_read: number;
  counts: ImportCounts | null;
  changes: ImportChanges | null;
  warnings: ImportWarning[];
  warnings_total: number;
  errors: ImportProblem[];
  errors_total: number;
  cursor_before: string | null;
  /** unix seconds */
  now: number;
}

/** Writes how a job ended (in the import's own transaction, for a success). */
export async function finishJob(db: Kysely<Database>, id: number, outcome: Outcome): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set({
      status: outcome.status,
      records_read: outcome.records_read,
      progress: outcome.status === 'succeeded' ? 1 : undefined,
      counts: outcome.counts ? JSON.stringify(outcome.counts) : null,
      changes: outcome.changes ? JSON.stringify(outcome.changes) : null,
      warnings: JSON.stringify(outcome.warnings),
      warnings_total: outcome.warnings_total,
      errors: JSON.stringify(outcome.errors),
      errors_total: outcome.errors_total,
      cursor_before: outcome.cursor_before,
      finished_at: outcome.now,
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', id)
    .execute();
}

/** Forgets a finished job's spool file (removed from the disk by the caller). */
export async function clearSpool(db: Kysely<Database>, id: number): Promise<void> {
  await db.updateTable('import_jobs').set({ spool_path: null }).where('id', '=', id).execute();
}

/** A job that a graceful stop interrupted goes back to the head of its queue. */
export async function requeue(db: Kysely<Database>, id: number, owner: string): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set({ status: 'queued', started_at: null, records_read: 0, progress: 0, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .execute();
}

/** Cancels a queued job; returns it (with its spool file, to remove) when it was still queued. */
export async function cancelQueued(
  db: Kysely<Database>,
  projectId: string,
  id: number,
  now: number,
): Promise<ImportJobRow | undefined> {
  return db
    .updateTable('import_jobs')
    .set({ status: 'canceled', finished_at: now, errors: '[]' })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** Asks the process running a job to stop it (it reads the flag when it renews its lease). */
export async function requestCancel(db: Kysely<Database>, projectId: string, id: number): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set({ cancel_requested: 1 })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

export const INTERRUPTED: ImportProblem = { place: 'import', message: 'interrupted; nothing was written' };

/**
 * Jobs left running by a process that died (its lease ran out) fail: their transaction never
 * committed, so nothing was written. Returns them, for their spool files.
 */
export async function failInterrupted(
  db: Kysely<Database>,
  owner: string,
  nowMs: number,
): Promise<Pick<ImportJobRow, 'id' | 'spool_host' | 'spool_path'>[]> {
  return db
    .updateTable('import_jobs')
    .set({
      status: 'failed',
      errors: JSON.stringify([INTERRUPTED]),
      errors_total: 1,
      finished_at: Math.floor(nowMs / 1000),
      lease_owner: null,
      lease_until: null,
    })
    .where('status', '=', 'running')
    .where('lease_owner', '!=', owner)
    .where('lease_until', '<', nowMs)
    .returning(['id', 'spool_host', 'spool_path'])
    .execute();
}

/** The spool files this host still needs (jobs queued or running here). */
export async function spoolsInUse(db: Kysely<Database>, host: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('import_jobs')
    .select('spool_path')
    .where('spool_host', '=', host)
    .where('status', 'in', ['queued', 'running'])
    .execute();
  return new Set(rows.map((r) => r.spool_path).filter((p): p is string => p !== null));
}
