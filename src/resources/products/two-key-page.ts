import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { PLAN_LIMITS } from './plan-limits.js';
import type { ProductRow } from './present.js';
import type { OrderClause } from './schemas.js';

// A page in an order of two clauses, e.g. `custom_asc,price_desc`, of the whole list or of
// a filter that matches a good share of it (walked in the first key's index). Both planners sort every row of each first-key group they pass:
// custom_sort is 0 for most products of a catalog, so page 1 of `custom_asc,price_desc`
// sorted ~900k rows at a million (PostgreSQL's incremental sort too). Instead:
//  1. the first-key values of the page's rows, read in that key's index alone (rows come
//     in the same groups, in the same order, whatever the second key does inside them);
//  2. the rows before the page's first group, counted on the same index: where the page
//     starts inside that group;
//  3. each group's part of the page, by the second key: a small group is read whole and
//     sorted; a large one is read walking the second key's index and keeping its rows.
// Every step reads about as many index entries as the page's offset, never the catalog.

export const ORDER_COLUMNS = { name: 'name_key', price: 'price', date: 'created_at', custom: 'custom_sort' } as const;
type Column = (typeof ORDER_COLUMNS)[keyof typeof ORDER_COLUMNS];
type Direction = 'asc' | 'desc';

export function orderColumn(clause: OrderClause): { column: Column; dir: Direction } {
  const [key, dir] = clause.split('_') as [keyof typeof ORDER_COLUMNS, Direction];
  return { column: ORDER_COLUMNS[key], dir };
}

/** The rows of the list (a fresh query builder each call): project, visibility, filters. */
export type ListRows = () => SelectQueryBuilder<Database, 'products', object>;

export async function twoKeyPage(
  db: Kysely<Database>,
  rowsOf: ListRows,
  order: [OrderClause, OrderClause],
  offset: number,
  perpage: number,
): Promise<ProductRow[]> {
  const first = orderColumn(order[0]);
  const second = orderColumn(order[1]);
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
  const before = await rowsOf()
    .where(`products.${first.column}`, first.dir === 'asc' ? '<' : '>', groups[0].value)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const page: ProductRow[] = [];
  let skip = offset - Number(before.n);
  for (const group of groups) {
    page.push(...(await groupPart(db, rowsOf, first.column, group.value, second, skip, group.rows)));
    skip = 0;
  }
  return page;
}

/** `take` rows of the first-key group `value`, after `skip` of them, in the second key's order. */
async function groupPart(
  db: Kysely<Database>,
  rowsOf: ListRows,
  column: Column,
  value: string | number,
  second: { column: Column; dir: Direction },
  skip: number,
  take: number,
): Promise<ProductRow[]> {
  const size = await db
    .selectFrom(
      rowsOf()
        .where(`products.${column}`, '=', value)
        .select(sql`1`.as('one'))
        .limit(PLAN_LIMITS.largeGroup)
        .as('g'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  // Large: walk the second key's index, keeping the group's rows; small: read the group on
  // the first key's index and sort it. SQLite's planner picks either whatever the group's
  // size (it has no statistics of values), so a unary + hides the index it must not take;
  // PostgreSQL's statistics tell it the size.
  const large = Number(size.n) >= PLAN_LIMITS.largeGroup;
  const hide = (c: Column, hidden: boolean) =>
    hidden && !isPostgres(db) ? sql`+${sql.ref(`products.${c}`)}` : sql.ref(`products.${c}`);
  return rowsOf()
    .selectAll('products')
    .where(hide(column, large), '=', value)
    .orderBy(hide(second.column, !large), second.dir)
    .orderBy('products.id', second.dir)
    .limit(take)
    .offset(skip)
    .execute();
}
