import { createHash } from 'node:crypto';
import type SQLite from 'better-sqlite3';

// A SQLite backup's own checksum. SQLite keeps no checksum of its pages: PRAGMA integrity_check
// finds a broken b-tree, not a changed byte inside a row. So the backup records a SHA-256 of
// every row of every table (in the order the file stores them) beside its completion mark
// (sqlite-backup.ts), and verifying reads the rows again and compares.

export const MARK = 'storefront_backup';

export function contentChecksum(db: SQLite.Database): string {
  const hash = createHash('sha256');
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> ? ORDER BY name")
    .pluck()
    .all(MARK) as string[];
  for (const table of tables) {
    hash.update(`\n${table}\n`);
    for (const row of db.prepare(`SELECT * FROM "${table}"`).raw().iterate() as IterableIterator<unknown[]>)
      hash.update(JSON.stringify(row, (_, v: unknown) => (Buffer.isBuffer(v) ? v.toString('base64') : v)));
  }
  return hash.digest('hex');
}
