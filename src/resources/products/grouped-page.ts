import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { hiddenFromSqliteIndexes, unindexed as unindexedOn } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { PLAN_LIMITS } from './plan-limits.js';
import { SHOWN_COLUMNS, type ShownProductRow } from './present.js';
import type { OrderClause } from './schemas.js';

// A page in an order of two clauses or more, e.g. `custom_asc,price_desc`, of the whole list
// or of a filter that matches a good share of it (walked in the first key's index). Both
// planners sort every row of each first-key group they pass: custom_sort is 0 for most
// products of a catalog, so page 1 of `custom_asc,price_desc` sorted ~900k rows at a million
// (PostgreSQL's incremental sort too). Instead:
//  1. the first-key values of the page's rows, read in that key's index alone (rows come
//     in the same groups, in the same order, whatever the later keys do inside them);
//  2. the rows before the page's first group, counted on the same index: where the page
//     starts inside that group;
//  3. each group's part of the page, by the later keys: the small groups together, read on
//     the first key's index and sorted; a large one (only the first or the last group can be:
//     the others lie wholly on the page) read walking the second key's index and keeping
//     its rows, or, with a third key, paged by the same steps within the group.
// Every step reads about as many index entries as the page's offset, never the catalog.

export const ORDER_COLUMNS = { name: 'name_key', price: 'price', date: 'created_at', custom: 'custom_sort' } as const;
type Column = (typeof ORDER_COLUMNS)[keyof typeof ORDER_COLUMNS];
type Direction = 'asc' | 'desc';
interface Key {
  column: Column;
  dir: Direction;
}

export function orderColumn(clause: OrderClause): Key {
  const [key, dir] = clause.split('_') as [keyof typeof ORDER_COLUMNS, Direction];
  return { column: ORDER_COLUMNS[key], dir };
}

/** How rows still tied after every clause go: by id, in the direction of the last clause. */
export function tieDirection(order: OrderClause[]): Direction {
  return order[order.length - 1].endsWith('_desc') ? 'desc' : 'asc';
}

/** Rows of the list (a fresh query builder each call): project, visibility, filters. */
export type ListRows = () => SelectQueryBuilder<Database, 'products', object>;

/**
 * `rowsOf`: the list's rows. `projectRows`: the same project and visibility without the
 * filter, whose first-key groups are counted on the index alone to tell a large group.
 */
export async function groupedPage(
  db: Kysely<Database>,
  rowsOf: ListRows,
  projectRows: ListRows,
  order: OrderClause[],
  offset: number,
  perpage: number,
): Promise<ShownProductRow[]> {
  const [first, ...rest] = order.map(orderColumn);
  const values = (
    await rowsOf()
      .select(sql<string | number>`${sql.ref(`products.${first.column}`)}`.as('v'))
      .orderBy(`products.${first.column}`, first.dir)
      .orderBy('products.id', first.dir)
      .limit(perpage)
      .offset(offset)
      .execute()
  ).map((r) => r.v);
  if (values.length === 0) return [];
  const groups: { value: string | number; rows: number }[] = [];
  for (const v of values) {
    const last = groups[groups.length - 1];
    if (last && last.value === v) last.rows++;
    else groups.push({ value: v, rows: 1 });
  }
  // Where the page starts inside its first group: the rows of the groups before it, counted.
  const skip =
    offset === 0
      ? 0
      : offset -
        Number(
          (
            await rowsOf()
              .where(`products.${first.column}`, first.dir === 'asc' ? '<' : '>', groups[0].value)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
  const idDir = tieDirection(order);
  // Only the first and the last group can reach past the page; every row of a group between
  // them is on it. So only those two are sized, and the others are read together, with the
  // small ends, in one query: a page of distinct prices is not a query per price.
  const ends = [...new Set([0, groups.length - 1])];
  const sized = await Promise.all(ends.map((i) => isLarge(db, projectRows, first.column, groups[i].value)));
  const large = new Set(ends.filter((_, k) => sized[k]));
  const page: ShownProductRow[] = [];
  let run: number[] = [];
  const readRun = async () => {
    if (run.length === 0) return;
    const take = run.reduce((n, i) => n + groups[i].rows, 0);
    const values = run.map((i) => groups[i].value);
    page.push(...(await smallGroups(db, rowsOf, first, rest, idDir, values, run[0] === 0 ? skip : 0, take)));
    run = [];
  };
  for (let i = 0; i < groups.length; i++) {
    if (!large.has(i)) {
      run.push(i);
      continue;
    }
    await readRun();
    const group = groups[i];
    const from = i === 0 ? skip : 0;
    if (rest.length > 1) {
      // A large group in three keys or more: SQLite then sorts the whole group (it sorts
      // within ties of the walked index for a single later key only), so the group is paged
      // the same way, by its second key's groups.
      const inGroup = (rows: ListRows) => () => rows().where(hidden(db, first.column), '=', group.value);
      page.push(...(await groupedPage(db, inGroup(rowsOf), inGroup(projectRows), order.slice(1), from, group.rows)));
    } else {
      page.push(...(await largeGroup(db, rowsOf, first.column, group.value, rest[0], idDir, from, group.rows)));
    }
  }
  await readRun();
  return page;
}

/** The column, hidden from SQLite's choice of index by a unary + (PostgreSQL: as it is). */
function hidden(db: Kysely<Database>, column: Column) {
  return hiddenFromSqliteIndexes(db, `products.${column}`);
}

/**
 * The column as a sort key no index provides. SQLite: `hidden`. PostgreSQL (before 17) cannot
 * read `first IN (…)` from an index in the index's order, so for the ORDER BY it walked the
 * first key's index over the whole project, testing each row against the list, instead of
 * reading the few rows of those values and sorting them: 5 s beside an import at 1M. An
 * expression (`+ 0`, `|| ''`, which keeps the column's collation) leaves only the second plan.
 */
function unindexed(db: Kysely<Database>, column: Column) {
  return unindexedOn(db, `products.${column}`, column === 'name_key' ? 'text' : 'number');
}

/**
 * Whether the project's group of `value` holds `PLAN_LIMITS.largeGroup` rows or more: counted
 * without the filter, in the first key's index alone (a category's rows would each need a
 * probe: counting 20,000 of them in a category of 3 % read 600k entries). In that index's
 * order: for a large group PostgreSQL chose a sequential scan, expecting the project's rows
 * spread evenly through the table; joining a scan already running (synchronize_seqscans) in
 * other projects' rows, it read gigabytes, 4 to 5 s beside an import, and the reads timed out.
 */
async function isLarge(db: Kysely<Database>, projectRows: ListRows, column: Column, value: string | number) {
  const size = await db
    .selectFrom(
      projectRows()
        .where(`products.${column}`, '=', value)
        .select(sql`1`.as('one'))
        .orderBy(`products.${column}`)
        .orderBy('products.id')
        .limit(PLAN_LIMITS.largeGroup)
        .as('g'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(size.n) >= PLAN_LIMITS.largeGroup;
}

/**
 * `take` rows of the small first-key groups `values` (consecutive on the page), after `skip`
 * of them: read on the first key's index and sorted. A unary + hides the later keys' indexes
 * from SQLite, which would otherwise walk one of them over the whole project.
 */
async function smallGroups(
  db: Kysely<Database>,
  rowsOf: ListRows,
  first: Key,
  rest: Key[],
  idDir: Direction,
  values: (string | number)[],
  skip: number,
  take: number,
): Promise<ShownProductRow[]> {
  let q = rowsOf()
    .select(SHOWN_COLUMNS)
    .where(`products.${first.column}`, 'in', values)
    .orderBy(unindexed(db, first.column), first.dir);
  for (const key of rest) q = q.orderBy(unindexed(db, key.column), key.dir);
  return q.orderBy('products.id', idDir).limit(take).offset(skip).execute();
}

/**
 * `take` rows of the large first-key group `value`, after `skip` of them, in the second key's
 * order: walking that key's index and keeping the group's rows (the first key's index is
 * hidden from SQLite, which has no statistics of values to know the group is large).
 */
async function largeGroup(
  db: Kysely<Database>,
  rowsOf: ListRows,
  column: Column,
  value: string | number,
  second: Key,
  idDir: Direction,
  skip: number,
  take: number,
): Promise<ShownProductRow[]> {
  return rowsOf()
    .select(SHOWN_COLUMNS)
    .where(hidden(db, column), '=', value)
    .orderBy(`products.${second.column}`, second.dir)
    .orderBy('products.id', idDir)
    .limit(take)
    .offset(skip)
    .execute();
}
