import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

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
