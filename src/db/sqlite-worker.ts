import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { SQLITE_PRAGMAS } from './sqlite-pragmas.js';
import { withStatementCache } from './sqlite-statements.js';

// One SQLite connection in a worker thread (src/db/sqlite-threads.ts starts it): it runs
// the statements the main thread sends, one at a time, and answers with their rows, so that
// a slow query blocks this thread and never the event loop. The statements arrive compiled
// by Kysely; `begin`, `commit` and `rollback` are statements too, so a transaction is a run
// of messages to one worker.

export interface WorkerOptions {
  path: string;
  /** readers open the file read-only: a write sent here by mistake fails instead of writing */
  readonly: boolean;
  /** the connection's page cache in MiB (a bulk load's writer); 2 MiB otherwise (sqlite-pragmas.ts) */
  cacheMiB?: number;
}

export interface Request {
  id: number;
  sql: string;
  params: readonly unknown[];
  /** a SELECT's rows as arrays of its columns' values (array-rows.ts) */
  arrays?: boolean;
}

export type Reply =
  | { id: number; rows: unknown[] }
  | { id: number; changes: number | bigint; lastInsertRowid: number | bigint }
  | { id: number; error: { message: string; code?: string } };

const { path, readonly, cacheMiB } = workerData as WorkerOptions;
const port = parentPort!;
const sqlite = new SQLite(path, { readonly, fileMustExist: true });
for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
if (cacheMiB) sqlite.pragma(`cache_size = -${cacheMiB * 1024}`);
const db = withStatementCache(sqlite);

port.on('message', (message: Request | 'close') => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  const { id, sql, params, arrays = false } = message;
  let reply: Reply;
  try {
    // The same calls as Kysely's own SqliteConnection, so rows and results are alike.
    const st = db.prepare(sql) as unknown as SQLite.Statement;
    // The statement is cached (sqlite-statements.ts): its row mode is set on every run.
    if (st.reader) reply = { id, rows: st.raw(arrays).all(params) };
    else {
      const { changes, lastInsertRowid } = st.run(params);
      reply = { id, changes, lastInsertRowid };
    }
  } catch (e) {
    const error = e as { message?: string; code?: unknown };
    reply = {
      id,
      error: { message: String(error?.message ?? e), code: typeof error?.code === 'string' ? error.code : undefined },
    };
  }
  port.postMessage(reply);
});
