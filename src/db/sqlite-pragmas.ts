// The settings of every SQLite connection, on the main thread and in the worker threads
// (src/db/sqlite-worker.ts) alike. synchronous=FULL makes every acknowledged commit durable
// even across a power cut; busy_timeout lets a CLI import and a running server share the
// file without "database is locked" errors (a lock held longer than that is SQLITE_BUSY,
// answered 503). WAL, which lets readers run beside a writer, is set once on the file by
// the main connection (it persists in the file).
export const SQLITE_PRAGMAS: readonly string[] = ['synchronous = FULL', 'busy_timeout = 5000', 'foreign_keys = OFF'];
