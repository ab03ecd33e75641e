import {
  type ColumnDefinitionBuilder,
  CompiledQuery,
  type Kysely,
  PostgresAdapter,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
} from 'kysely';
import type { Database } from './schema.js';
import { copyRows, copyUpsert } from './copy-rows.js';

// The few places where SQLite and PostgreSQL truly differ. Every query elsewhere is
// written once and runs on both.

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Columns that are compared or ordered as text (lower-cased sort keys, handles, emails)
 * use byte order on both backends: SQLite's BINARY collation, PostgreSQL's "C". With the
 * lower-casing done in JavaScript, both backends then order and match exactly alike.
 */
export function byteCollated(db: Kysely<any>) {
  return (col: ColumnDefinitionBuilder) => (isPostgres(db) ? col.notNull().modifyEnd(sql`collate "C"`) : col.notNull());
}

/** A service-wide auto-incrementing integer primary key. */
export function autoIdType(db: Kysely<any>) {
  return isPostgres(db) ? ('bigserial' as const) : ('integer' as const);
}
export function autoId(db: Kysely<any>) {
  return (col: ColumnDefinitionBuilder) => (isPostgres(db) ? col.primaryKey() : col.primaryKey().autoIncrement());
}

/**
 * Locks the selected rows until the transaction ends. PostgreSQL needs FOR UPDATE; SQLite
 * has one writer at a time, and a write transaction already holds it.
 */
export function forUpdate<QB extends { forUpdate(): QB }>(db: Kysely<any>, query: QB): QB {
  return isPostgres(db) ? query.forUpdate() : query;
}

/**
 * Locks the selected rows of `table` and skips those another transaction holds, so that
 * several processes claim disjoint rows instead of waiting for each other: PostgreSQL's
 * `FOR UPDATE OF … SKIP LOCKED`. SQLite has one writer: nobody else holds a row.
 */
export function skipLocked<DB, TB extends keyof DB & string, O>(
  db: Kysely<any>,
  query: SelectQueryBuilder<DB, TB, O>,
  table: TB,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? query.forUpdate(table).skipLocked() : query;
}

/**
 * A transaction whose statements all see one state of the database, committed or not:
 * PostgreSQL's default (read committed) takes a snapshot per statement, so it asks for
 * `REPEATABLE READ`, read only. A SQLite transaction reads one snapshot already.
 */
export function readOnlySnapshot(db: Kysely<Database>) {
  const begin = db.transaction();
  return isPostgres(db) ? begin.setIsolationLevel('repeatable read').setAccessMode('read only') : begin;
}

/**
 * Runs a write that gives up instead of waiting for a lock: false when the database was busy.
 * SQLite: better-sqlite3 waits for a lock on the event loop's thread, so a write waiting for
 * an import's lock (busy_timeout, 5 s) would stall every request of the process; this one
 * runs with busy_timeout 0 on its connection. PostgreSQL waits without blocking anything.
 */
export async function writeUnlessBusy(
  db: Kysely<Database>,
  write: (db: Kysely<Database>) => Promise<unknown>,
): Promise<boolean> {
  if (isPostgres(db)) {
    await write(db);
    return true;
  }
  return db.connection().execute(async (c) => {
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(c);
    await sql`pragma busy_timeout = 0`.execute(c);
    try {
      await write(c);
      return true;
    } catch (e) {
      if (String((e as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return false;
      throw e;
    } finally {
      await sql.raw(`pragma busy_timeout = ${Number(rows[0]?.timeout ?? 5000)}`).execute(c);
    }
  });
}

/**
 * The ids a correlated subquery yields, ascending, joined by commas (null when none), as one
 * value of the outer row: PostgreSQL's `string_agg` orders them itself; SQLite's
 * `group_concat` takes no order, so it reads an ordered subquery. `column` is qualified
 * (`pc.category_id`); `rows` is the subquery's `from … where …`.
 */
export function joinedIdList(db: Kysely<any>, column: string, rows: RawBuilder<unknown>): RawBuilder<string | null> {
  const id = sql.raw(column);
  return isPostgres(db)
    ? sql`(select string_agg(${id}::text, ',' order by ${id}) ${rows})`
    : sql`(select group_concat(${sql.raw(column.slice(column.indexOf('.') + 1))}) from (select ${id} ${rows} order by ${id}))`;
}

/** A list of texts as one parameter, for `in`: an array (PostgreSQL) or a JSON text (SQLite). */
export function textList(db: Kysely<any>, values: string[]): RawBuilder<string> {
  return isPostgres(db)
    ? sql<string>`(select unnest(${values}::text[]))`
    : sql<string>`(select value from json_each(${JSON.stringify(values)}))`;
}

/**
 * The column, hidden from SQLite's choice of index by a unary + (which SQLite does not
 * simplify away); on PostgreSQL, whose planner this does not steer, the column as it is.
 */
export function hiddenFromSqliteIndexes(db: Kysely<any>, column: string): RawBuilder<unknown> {
  return isPostgres(db) ? sql.ref(column) : sql`+${sql.ref(column)}`;
}

/**
 * The column as a sort key no index provides, on both backends: SQLite a unary +
 * (`hiddenFromSqliteIndexes`); PostgreSQL an expression that keeps the value, `|| ''` for
 * text (keeping its collation) and `+ 0` for numbers.
 */
export function unindexed(db: Kysely<any>, column: string, type: 'text' | 'number'): RawBuilder<unknown> {
  if (!isPostgres(db)) return hiddenFromSqliteIndexes(db, column);
  return type === 'text' ? sql`${sql.ref(column)} || ''` : sql`${sql.ref(column)} + 0`;
}

/**
 * Whether the planner may misjudge how many rows a LIKE matches, and walk an ordering's index
 * where gathering the matches first is cheaper (PostgreSQL's estimate of a LIKE is rough;
 * SQLite plans the products list as told).
 */
export function misjudgesLike(db: Kysely<any>): boolean {
  return isPostgres(db);
}

/**
 * Inserts many rows (all with the same keys) of any table: on PostgreSQL through COPY
 * (copy-rows.ts), on SQLite multi-row statements within its 32,766 parameters (7 columns at
 * most).
 */
export async function bulkInsert(db: Kysely<any>, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (isPostgres(db)) return copyRows(db, table, rows);
  for (let i = 0; i < rows.length; i += 4000) {
    const chunk = rows.slice(i, i + 4000);
    const plain = sqliteInsert(table, chunk, '');
    await (plain ? db.executeQuery(plain) : db.insertInto(table).values(chunk).execute());
  }
}

/**
 * A multi-row INSERT of rows that all have the columns of the first and no undefined value,
 * as SQL text and flat parameters (else undefined: Kysely's builder writes it). A batch's
 * rows through Kysely's builder made a value node of every cell and compiled them again for
 * every batch, a share of a server import's main thread (docs/PERFORMANCE.md, "Bulk loads
 * (issue 27)"); the text is the same for every batch of a size, so SQLite's statement cache
 * keeps it.
 */
function sqliteInsert(table: string, rows: Record<string, unknown>[], tail: string): CompiledQuery | undefined {
  const columns = Object.keys(rows[0]);
  const values: unknown[] = [];
  for (const row of rows) {
    let n = 0;
    for (const c in row) {
      const v = row[c];
      if (v === undefined || c !== columns[n++]) return undefined;
      values.push(v);
    }
    if (n !== columns.length) return undefined;
  }
  const one = `(${columns.map(() => '?').join(', ')})`;
  const text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${Array(rows.length).fill(one).join(', ')}${tail}`;
  return CompiledQuery.raw(text, values);
}

/**
 * `bulkInsert`, where a row whose `key` exists replaces the stored one's other columns (on
 * PostgreSQL COPY into a staging table, then one INSERT … SELECT … ON CONFLICT).
 */
export async function bulkUpsert(
  db: Kysely<any>,
  table: string,
  rows: Record<string, unknown>[],
  key: string[],
): Promise<void> {
  if (isPostgres(db)) return copyUpsert(db, table, rows, key);
  const columns = Object.keys(rows[0]).filter((c) => !key.includes(c));
  const set = columns.map((c) => `"${c}" = excluded."${c}"`).join(', ');
  const plain = sqliteInsert(table, rows, ` on conflict (${key.map((c) => `"${c}"`).join(', ')}) do update set ${set}`);
  if (plain) {
    await db.executeQuery(plain);
    return;
  }
  await db
    .insertInto(table)
    .values(rows)
    .onConflict((oc) =>
      oc.columns(key).doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)]))),
    )
    .execute();
}

/**
 * Whether another connection can write while a long write transaction runs: PostgreSQL locks
 * rows; SQLite has one writer, so a second write waits for the first to commit (the import
 * jobs keep their progress in memory there, src/imports/run-job.ts).
 */
export function writesBesideATransaction(db: Kysely<any>): boolean {
  return isPostgres(db);
}
