import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres, textList } from './dialect.js';
import type { Database } from './schema.js';

// The statements that keep `q`'s words (migration 018), in one statement per chunk on both
// backends: the rows travel as arrays (PostgreSQL) or one JSON text (SQLite).

const CHUNK = 5_000;

export interface Posting {
  word: string;
  product_id: number;
  field: number;
}

/** Adds postings (a posting already there takes the new field). */
export async function insertPostings(db: Kysely<Database>, projectId: string, rows: Posting[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const source = isPostgres(db)
      ? sql`select ${projectId}::text, w, p, f from unnest(${chunk.map((r) => r.word)}::text[], ${chunk.map((r) => r.product_id)}::bigint[], ${chunk.map((r) => r.field)}::int[]) as d(w, p, f)`
      : sql`select ${projectId}, value ->> 0, value ->> 1, value ->> 2 from json_each(${JSON.stringify(chunk.map((r) => [r.word, r.product_id, r.field]))}) where true`;
    await sql`insert into search_postings (project_id, word, product_id, field) ${source}
      on conflict (project_id, word, product_id) do update set field = excluded.field`.execute(db);
  }
}

/** Adds the words the vocabulary lacks, marked with the write's data_version. */
export async function insertWords(
  db: Kysely<Database>,
  projectId: string,
  words: string[],
  seq: number,
): Promise<void> {
  for (let i = 0; i < words.length; i += CHUNK) {
    const chunk = words.slice(i, i + CHUNK);
    const source = isPostgres(db)
      ? sql`select ${projectId}::text, w, ${seq}::bigint from unnest(${chunk}::text[]) as w`
      : sql`select ${projectId}, value, ${seq} from json_each(${JSON.stringify(chunk)}) where true`;
    await sql`insert into search_words (project_id, word, seq) ${source} on conflict (project_id, word) do nothing`.execute(
      db,
    );
  }
}

/** Removes every posting of `ids` (`words`: all the words they hold, so the primary key finds them). */
export async function deletePostings(
  db: Kysely<Database>,
  projectId: string,
  ids: number[],
  words: string[],
): Promise<void> {
  if (ids.length === 0 || words.length === 0) return;
  for (let i = 0; i < words.length; i += CHUNK) {
    await db
      .deleteFrom('search_postings')
      .where('project_id', '=', projectId)
      .where('word', 'in', textList(db, words.slice(i, i + CHUNK)))
      .where('product_id', 'in', ids)
      .execute();
  }
}

/**
 * The query's candidate words as a table `w(qi, word, code)` to join the postings with: one
 * array per column (PostgreSQL) or one JSON text (SQLite), however many words a prefix brings.
 */
export function candidateWords(db: Kysely<any>, rows: [number, string, number][]): RawBuilder<unknown> {
  return isPostgres(db)
    ? sql`unnest(${rows.map((r) => r[0])}::int[], ${rows.map((r) => r[1])}::text[], ${rows.map((r) => r[2])}::int[]) as w(qi, word, code)`
    : sql`(select value ->> 0 as qi, value ->> 1 as word, value ->> 2 as code from json_each(${JSON.stringify(rows)})) as w`;
}
