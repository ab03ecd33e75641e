import { once } from 'node:events';
import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { BackupError, COUNTED_TABLES, type TableCounts, discard, finish, partialName } from './backup-files.js';
import { migrateToLatest } from './migrate.js';
import { skipLostVersions } from './restore-versions.js';
import type { Database } from './schema.js';
import { MARK, contentChecksum } from './sqlite-checksum.js';

// SQLite's backups. `VACUUM INTO` copies the database inside one read transaction: one WAL
// snapshot, so every commit before it began is in the copy and no transaction is half in it,
// while writers go on (WAL readers never block them). The online backup API would restart its
// copy at every write of another connection, and never end under a steady stream of them. It
// runs in a worker thread (sqlite-backup-worker.ts), so that a server's event loop is free.
// The copy then gets its checksum and completion mark (the table `storefront_backup`), and
// only then its name: a file without the mark is no backup, whatever its name.

const WORKER_URL = new URL('./sqlite-backup-worker.js', import.meta.url);

export async function backupSqlite(path: string, file: string): Promise<void> {
  if (path === ':memory:') throw new BackupError('an in-memory database (sqlite::memory:) cannot be backed up');
  if (!existsSync(path)) throw new BackupError(`no database at sqlite:${path}`);
  const partial = partialName(file);
  try {
    const worker = new Worker(WORKER_URL, { workerData: { path, partial } });
    const [reply] = (await once(worker, 'message')) as [{ ok: boolean; message?: string }];
    if (!reply.ok) throw new BackupError(`cannot back up sqlite:${path}: ${reply.message}`);
    finish(partial, file);
  } catch (e) {
    discard(partial);
    throw e;
  }
}

/** Checks a SQLite backup whole; its record counts, or a BackupError saying what is wrong. */
export function verifySqlite(file: string): TableCounts {
  let db: SQLite.Database | undefined;
  try {
    checkLength(file);
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    const problems = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    if (problems.join() !== 'ok') throw new BackupError(`${file} is corrupted: ${problems.slice(0, 3).join('; ')}`);
    if (!hasTable(db, 'projects')) throw new BackupError(`${file} is a SQLite database, not a Storefront backup`);
    if (!hasTable(db, MARK))
      throw new BackupError(`${file} is not a complete backup of this service (no completion mark)`);
    const mark = db.prepare(`SELECT checksum FROM ${MARK}`).pluck().get();
    if (mark !== contentChecksum(db))
      throw new BackupError(`${file} is corrupted: its rows differ from the checksum taken when it was written`);
    const counts: TableCounts = {};
    for (const table of COUNTED_TABLES)
      if (hasTable(db, table))
        counts[table] = (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return counts;
  } catch (e) {
    if (e instanceof BackupError) throw e;
    throw new BackupError(`${file} is corrupted: ${(e as Error).message}`);
  } finally {
    db?.close();
  }
}

/** A truncated file: its header (read before SQLite, which calls that "malformed") names more pages. */
function checkLength(file: string): void {
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  const pageSize = header.readUInt16BE(16) === 1 ? 65_536 : header.readUInt16BE(16);
  // The page count is valid when the header's change counter matches "version-valid-for".
  if (header.readUInt32BE(24) !== header.readUInt32BE(92)) return;
  const expected = header.readUInt32BE(28) * pageSize;
  const bytes = statSync(file).size;
  if (bytes < expected) throw new BackupError(`${file} is truncated: ${bytes} bytes where its header says ${expected}`);
}

function hasTable(db: SQLite.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** The projects a database file holds (0 when there is no file or no schema yet). */
export function sqliteProjects(path: string): number {
  if (!existsSync(path)) return 0;
  const db = new SQLite(path, { readonly: true });
  try {
    return hasTable(db, 'projects') ? (db.prepare('SELECT count(*) AS n FROM projects').get() as { n: number }).n : 0;
  } finally {
    db.close();
  }
}

/**
 * Makes `path` the database of `file` (verified first): the copy is prepared under a temporary
 * name (mark removed, schema upgraded, versions moved past the lost ones, WAL) and renamed over
 * `path`, whose old -wal and -shm go first (left there, SQLite would replay them into the copy).
 */
export async function restoreSqlite(file: string, path: string): Promise<void> {
  const partial = partialName(path);
  try {
    const raw = new SQLite(file, { readonly: true, fileMustExist: true });
    await raw.backup(partial);
    raw.close();
    const sqlite = new SQLite(partial);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      sqlite.exec(`DROP TABLE IF EXISTS ${MARK}`);
      await migrateToLatest(db);
      await skipLostVersions(db);
      sqlite.pragma('journal_mode = WAL');
    } finally {
      await db.destroy();
    }
    for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    finish(partial, path);
  } catch (e) {
    discard(partial);
    throw e;
  }
}
