import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { MARK, contentChecksum } from './sqlite-checksum.js';
import { SQLITE_PRAGMAS } from './sqlite-pragmas.js';

// One SQLite backup in a worker thread (sqlite-backup.ts starts it), so that a server's event
// loop stays free however large the database: VACUUM INTO copies the database in one read
// transaction on a read-only connection, then the copy gets its checksum and completion mark.

const { path, partial } = workerData as { path: string; partial: string };
try {
  const source = new SQLite(path, { readonly: true, fileMustExist: true });
  for (const pragma of SQLITE_PRAGMAS) source.pragma(pragma);
  source.prepare('VACUUM INTO ?').run(partial);
  source.close();
  const copy = new SQLite(partial);
  // One self-contained file: no -wal beside it to lose on the way.
  copy.pragma('journal_mode = DELETE');
  const checksum = contentChecksum(copy);
  copy.exec(`CREATE TABLE ${MARK} (taken_at INTEGER NOT NULL, checksum TEXT NOT NULL)`);
  copy.prepare(`INSERT INTO ${MARK} VALUES (?, ?)`).run(Math.floor(Date.now() / 1000), checksum);
  copy.close();
  parentPort!.postMessage({ ok: true });
} catch (e) {
  parentPort!.postMessage({ ok: false, message: (e as Error).message });
}
