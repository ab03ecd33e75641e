import { type RawBuilder, type SqlBool, sql } from 'kysely';

// Keyset paging: the rows after the last one read, in an order of several keys, each
// ascending or descending (the last key unique, e.g. the id). An export walks a list of any
// size this way: each page starts where the one before ended, through the order's index,
// where an OFFSET would read every row it skips again (a million rows: quadratic).

export interface KeysetKey {
  /** a qualified column, e.g. `products.price` */
  column: string;
  dir: 'asc' | 'desc';
}

/**
 * `(k1 > v1) or (k1 = v1 and k2 > v2) or …` (`<` for a descending key), and the first key's
 * bound alone besides (`k1 >= v1`), which both planners turn into a range on the index.
 */
export function keysetAfter(keys: readonly KeysetKey[], values: readonly unknown[]): RawBuilder<SqlBool> {
  const cmp = (k: KeysetKey, strict: boolean) => sql.raw(k.dir === 'asc' ? (strict ? '>' : '>=') : strict ? '<' : '<=');
  const branches = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k, j) => sql`${sql.ref(k.column)} = ${values[j]}`);
    return sql.join([...equal, sql`${sql.ref(key.column)} ${cmp(key, true)} ${values[i]}`], sql` and `);
  });
  return sql<SqlBool>`(${sql.ref(keys[0].column)} ${cmp(keys[0], false)} ${values[0]} and (${sql.join(
    branches.map((b) => sql`(${b})`),
    sql` or `,
  )}))`;
}

export interface KeysetWalk<R, P> {
  /** the order, its last key unique */
  keys: readonly KeysetKey[];
  pageSize: number;
  /** `limit` rows in the keys' order: the first ones, or those `after` (keysetAfter) */
  read(after: RawBuilder<SqlBool> | undefined, limit: number): Promise<R[]>;
  /** a row's values of the keys, in their order */
  keyOf(row: R): readonly unknown[];
  /** the page as the walk gives it: its rows with what else they need (a second read) */
  complete(rows: R[]): Promise<P>;
}

/**
 * Every row of a read, page after page in keyset order, each page once. The next page is
 * asked for as soon as a page has arrived, before the caller uses it: the database (a SQLite
 * thread, PostgreSQL) reads it while this thread writes out the one before. At most two pages
 * are held at a time whatever the size of the walk.
 */
export async function* walkPages<R, P>(walk: KeysetWalk<R, P>): AsyncGenerator<P> {
  let next: Promise<R[]> | undefined;
  try {
    let rows = await walk.read(undefined, walk.pageSize);
    while (rows.length > 0) {
      const page = walk.complete(rows);
      const last = rows[rows.length - 1];
      next =
        rows.length < walk.pageSize ? undefined : walk.read(keysetAfter(walk.keys, walk.keyOf(last)), walk.pageSize);
      // Failing while the caller holds the page: it fails when awaited, not as unhandled.
      next?.catch(() => undefined);
      yield await page;
      if (!next) return;
      rows = await next;
      next = undefined;
    }
  } finally {
    // A walk left early (the client went away) waits for the read it started: the snapshot's
    // transaction must not end under it.
    await next?.catch(() => undefined);
  }
}
