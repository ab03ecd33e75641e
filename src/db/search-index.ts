import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from './dialect.js';

// `search` is a case-insensitive substring of products.search_text (already lower-cased).
// A plain LIKE '%term%' reads every row; a trigram index finds the few rows holding every
// three-letter piece of the term. Both backends keep the exact LIKE as the final judge, so
// the index only narrows the candidates and results stay identical to the plain scan.
//
// SQLite: an FTS5 table with the trigram tokenizer over products.search_text (external
// content, keyed by the products rowid), kept in step by triggers, so that every write path
// (import, product update, generate, anything later) maintains it without knowing about it.
// case_sensitive 1: tokens are compared as stored, so no Unicode case folding can make the
// index disagree with LIKE on the lower-cased text. VACUUM may renumber the rowids of
// products (it has no INTEGER PRIMARY KEY): after a VACUUM run
// `INSERT INTO products_fts(products_fts) VALUES ('rebuild')`.
//
// PostgreSQL: pg_trgm's GIN index, which serves LIKE '%term%' directly.

export async function createSearchIndex(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    // Trusted extension (PG 13+): the database owner may create it. Two processes migrating
    // at once may both try; the loser finds it made.
    await sql`do $$ begin
      create extension if not exists pg_trgm with schema public;
    exception when unique_violation or duplicate_object then null;
    end $$`.execute(db);
    await sql`create index products_search_trgm on products using gin (search_text public.gin_trgm_ops)`.execute(db);
    return;
  }
  await sql`create virtual table products_fts using fts5(search_text, content='products', content_rowid='rowid', tokenize='trigram case_sensitive 1', detail='none')`.execute(
    db,
  );
  // A 64 MiB buffer of pending index entries (default 1 MiB) makes bulk inserts cheaper:
  // fewer, larger segments to merge (docs/PERFORMANCE.md, "Bulk loads"). It is spent only while a write transaction runs.
  await sql`insert into products_fts(products_fts, rank) values ('hashsize', 67108864)`.execute(db);
  await sql`create trigger products_fts_insert after insert on products begin
    insert into products_fts(rowid, search_text) values (new.rowid, new.search_text);
  end`.execute(db);
  await sql`create trigger products_fts_delete after delete on products begin
    insert into products_fts(products_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
  end`.execute(db);
  await sql`create trigger products_fts_update after update of search_text on products when old.search_text is not new.search_text begin
    insert into products_fts(products_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
    insert into products_fts(rowid, search_text) values (new.rowid, new.search_text);
  end`.execute(db);
  await sql`insert into products_fts(products_fts) values ('rebuild')`.execute(db);
}

/** The LIKE pattern of a lower-cased substring, with \ escaping \, % and _ (both backends). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * "search_text contains term", tested row by row: for rows reached otherwise (a handful of
 * ids, a walk of the order's index over dense matches). instr/position, unlike LIKE, is no
 * operator of the trigram index, so PostgreSQL's planner cannot turn the walk into a gathering
 * of every match. Both compare the lower-cased text and term as they are, as LIKE does here.
 */
export function containsCondition(db: Kysely<any>, term: string): RawBuilder<boolean> {
  return isPostgres(db)
    ? sql<boolean>`position(${term}::text in products.search_text) > 0`
    : sql<boolean>`instr(products.search_text, ${term}) > 0`;
}

/**
 * "search_text contains term", found from the trigram index: every match is gathered. The
 * term is lower-cased. On SQLite a term of three characters or more is narrowed by the FTS5
 * table first and LIKE judges each candidate; shorter terms have no trigram and are scanned.
 * On PostgreSQL pg_trgm's GIN index serves LIKE directly.
 */
export function searchCondition(db: Kysely<any>, term: string): RawBuilder<boolean> {
  const like = sql<boolean>`products.search_text like ${likePattern(term)} escape '\\'`;
  if (isPostgres(db) || [...term].length < 3) return like;
  return sql<boolean>`products.rowid in (select rowid from products_fts where products_fts match ${trigramQuery(term)}) and ${like}`;
}

/**
 * Every three-character piece of the term, ANDed: an FTS5 query for rows holding them all
 * (detail=none keeps no positions, so a phrase query is not available; LIKE then checks
 * that the pieces are adjacent). Each piece is one trigram token, quoted as FTS5 wants.
 */
export function trigramQuery(term: string): string {
  const chars = [...term];
  const pieces = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) pieces.add(chars.slice(i, i + 3).join(''));
  // Any subset still finds every match; a dozen pieces narrow as well as all of them.
  return [...pieces]
    .slice(0, 12)
    .map((p) => `"${p.replace(/"/g, '""')}"`)
    .join(' AND ');
}
