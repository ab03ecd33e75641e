import { type Storage, connect } from './connect.js';
import { writesCountFor } from './written-versions.js';

// The storage a server's import jobs write through. A job's import is one transaction of
// minutes whose statements may each run long (a batch of a large file, the reference
// checks over a million rows, the statistics' refresh), past the serving pool's statement
// timeout, which is there so that no request hangs: on PostgreSQL the jobs get the CLI's
// long-running connection (ConnectOptions.longRunning), a pool of their own beside the
// serving one. SQLite has one writer, the server's writer thread: the jobs use the server's
// storage (a bulk load's larger page cache is asked for per import, bulk-load.ts), through
// its `patientDb`, which waits for the writer as long as it takes where a request's write
// gives up after WRITE_WAIT_MS (503 with Retry-After).

/** The server's storage, or a long-running one to close with it (`owned`). */
export function longWriteStorage(
  url: string,
  serving: Storage,
  options: { searchPath?: string } = {},
): { storage: Storage; owned: boolean } {
  if (serving.backend !== 'postgres') {
    if (!serving.patientDb) return { storage: serving, owned: false };
    writesCountFor(serving.patientDb, serving.db);
    return { storage: { ...serving, db: serving.patientDb }, owned: false };
  }
  // One job runs at a time in a process: its transaction and a spare connection.
  const storage = connect(url, { ...options, longRunning: true, poolSize: 2 });
  writesCountFor(storage.db, serving.db);
  return { storage, owned: true };
}
