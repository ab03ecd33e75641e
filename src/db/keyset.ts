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
