import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema.js';
import { isThreadedSqlite, readAsArrays } from './sqlite-threads-dialect.js';

// A select's rows read from a SQLite thread as arrays of values, for reads of many rows (an
// export's pages). better-sqlite3 building an object per row took half of the thread's time
// on a page, and its rows are cloned to the main thread with every key again; as arrays the
// thread builds and clones the values alone, and the rows are made objects again here, where
// they are used (docs/PERFORMANCE.md, "CSV export"). Elsewhere (PostgreSQL, SQLite on the
// main thread) the rows are read as they always are.

/** The rows of `query`, which selects exactly `columns` in that order, as objects of them. */
export async function selectRows<R>(
  db: Kysely<Database>,
  query: Compilable<R>,
  columns: readonly (keyof R & string)[],
): Promise<R[]> {
  const compiled = query.compile();
  if (!isThreadedSqlite(db)) return (await db.executeQuery(compiled)).rows;
  readAsArrays(compiled);
  const { rows } = await db.executeQuery<unknown[]>(compiled);
  return rows.map((values) => {
    const row = {} as Record<string, unknown>;
    for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
    return row as R;
  });
}
