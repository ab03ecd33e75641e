// The settings of every SQLite connection, on the main thread and in the worker threads
// (src/db/sqlite-worker.ts) alike. synchronous=FULL makes every acknowledged commit durable
// even across a power cut; busy_timeout lets a CLI import and a running server share the
// file without "database is locked" errors (a lock held longer than that is SQLITE_BUSY,
// answered 503). WAL, which lets readers run beside a writer, is set once on the file by
// the main connection (it persists in the file).
//
// cache_size: SQLite's own default, 2 MiB a connection (better-sqlite3 builds it with 16 MiB).
// A server has up to ten connections (the main one, the writer, readers grown under load),
// each with its cache and a sorter of the same size: 16 MiB grew the server's memory far more
// than it sped anything up (docs/PERFORMANCE.md, "SQLite: slow reads in worker threads");
// the file's pages stay in the OS's cache. Bulk loads ask for more
// (ConnectOptions.sqliteCacheMiB).
export const SQLITE_PRAGMAS: readonly string[] = [
  'synchronous = FULL',
  'busy_timeout = 5000',
  'foreign_keys = OFF',
  'cache_size = -2048',
];
