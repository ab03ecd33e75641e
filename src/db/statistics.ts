import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

// The planners' statistics, refreshed after a bulk write (import, generate), and on
// PostgreSQL the visibility map with them. PostgreSQL's autovacuum analyzes a table only
// after a while: right after an import its statistics still said a project held a few rows,
// and it chose nested loops that took seconds for a category count (docs/PERFORMANCE.md,
// "Statistics during and after bulk writes"). ANALYZE samples at most 30,000 rows a table, so it takes a second or two even at
// a million. Only the tables named: a bare ANALYZE would go through every schema of the
// database (tests give each app one).
//
// SQLite: `PRAGMA optimize` analyzes the tables whose size changed much since their last
// analysis (0x10000: every table, not only those this connection used), each from a sample
// (analysis_limit), so a small import into a large catalog costs next to nothing.

export async function refreshStatistics(db: Kysely<any>, tables: readonly string[]): Promise<void> {
  if (isPostgres(db)) {
    // VACUUM too, where it can run (not in a transaction): it marks the written pages
    // all-visible, which index-only scans need. Deep pages read their ids in the order's
    // index alone (list.ts); without the marks each id was fetched from the table as well
    // (docs/PERFORMANCE.md). Autovacuum comes to inserted tables only after a while, or never
    // where it is off. It reads only pages not yet marked.
    const list = sql.join(tables.map((t) => sql.table(t)));
    await (db.isTransaction ? sql`analyze ${list}` : sql`vacuum (analyze) ${list}`).execute(db);
    return;
  }
  await sql`pragma analysis_limit = 1000`.execute(db);
  await sql`pragma optimize = 0x10002`.execute(db);
}

/** Rows written before the first mid-write ANALYZE; each later one waits for twice as many. */
const FIRST_ANALYZE = 5_000;

/**
 * PostgreSQL plans each statement of a bulk write from the statistics it had when the write
 * began: in a new project, or a new database, it believes the project holds a few rows, and a
 * batch's `IN (500 ids)` then looks like the whole table (a sequential scan per batch:
 * quadratic). ANALYZE inside the writing transaction samples its own uncommitted rows, so
 * the written tables are analyzed each time their written rows double (5k, 10k, 20k …: ten
 * times for a million, a second or two in all). SQLite's planner needs none of this.
 */
export class StatisticsAsTablesGrow {
  private readonly written = new Map<string, number>();
  private readonly next = new Map<string, number>();

  constructor(private readonly db: Kysely<any>) {}

  async wrote(tables: readonly string[], rows: number): Promise<void> {
    if (!isPostgres(this.db) || rows === 0) return;
    const due: string[] = [];
    for (const table of tables) {
      const written = (this.written.get(table) ?? 0) + rows;
      this.written.set(table, written);
      if (written < (this.next.get(table) ?? FIRST_ANALYZE)) continue;
      this.next.set(table, written * 2);
      due.push(table);
    }
    if (due.length) await sql`analyze ${sql.join(due.map((t) => sql.table(t)))}`.execute(this.db);
  }
}
