import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

// The planners' statistics, refreshed after a bulk write (import, generate). PostgreSQL's
// autovacuum analyzes a table only after a while: right after an import of 100k products its
// statistics still said a project held a few rows, and it chose nested loops that took 9 s for
// a category count (38 ms after ANALYZE). ANALYZE samples at most 30,000 rows a table, so it
// takes a second or two even at a million. Only the tables named: a bare ANALYZE would go
// through every schema of the database (tests give each app one).
//
// SQLite: `PRAGMA optimize` analyzes the tables whose size changed much since their last
// analysis (0x10000: every table, not only those this connection used), each from a sample
// (analysis_limit), so a small import into a large catalog costs next to nothing.

export async function refreshStatistics(db: Kysely<any>, tables: readonly string[]): Promise<void> {
  if (isPostgres(db)) {
    await sql`analyze ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
    return;
  }
  await sql`pragma analysis_limit = 1000`.execute(db);
  await sql`pragma optimize = 0x10002`.execute(db);
}
