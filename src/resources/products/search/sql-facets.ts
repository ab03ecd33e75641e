import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { SHOWN_IN_STOCK } from '../filters.js';
import type { FacetName, Facets } from './facets.js';
import { chosenRanges, type PriceRange } from './price-ranges.js';

// `facets=` without `q` (CONTRACT 17): each facet one aggregate statement over the products
// passing every filter but its own (`rowsWithout`), exactly, in SQL on both backends. With no
// postings to aggregate, the database counts faster than the rows travel to be counted here
// (docs/PERFORMANCE.md, "Shopper search"); with `q`, facets.ts counts the match set's rows.

type Rows = SelectQueryBuilder<Database, 'products', object>;

export async function facetsInSql(
  db: Kysely<Database>,
  projectId: string,
  names: readonly FacetName[],
  rowsWithout: (name: FacetName) => Rows,
  ranges: PriceRange[] | undefined,
): Promise<Facets> {
  const facets: Facets = {};
  for (const name of names) {
    const rows = rowsWithout(name);
    if (name === 'category') facets.category = await categoryFacet(db, projectId, rows);
    if (name === 'price') facets.price = await priceFacet(rows, rowsWithout(name), ranges);
    if (name === 'in_stock') facets.in_stock = await inStockFacet(rows);
    if (name === 'inventory_type') facets.inventory_type = await inventoryFacet(rows);
  }
  return facets;
}

/** Per category, the matches in its subtree: a product once per ancestor, however many of its categories lie below. */
async function categoryFacet(db: Kysely<Database>, projectId: string, rows: Rows) {
  const matched = rows.select('products.id');
  const { rows: counted } = await sql<{ id: number; n: number }>`with recursive up(category_id, ancestor_id) as (
      select id, id from categories where project_id = ${projectId}
      union all
      select up.category_id, c.parent_id from up
      join categories c on c.project_id = ${projectId} and c.id = up.ancestor_id
      where c.parent_id is not null)
    select up.ancestor_id as id, count(distinct pc.product_id) as n
    from (${matched}) m
    join product_categories pc on pc.project_id = ${projectId} and pc.product_id = m.id
    join up on up.category_id = pc.category_id
    group by up.ancestor_id
    order by up.ancestor_id`.execute(db);
  return counted.map((r) => ({ id: Number(r.id), count: Number(r.n) }));
}

async function priceFacet(rows: Rows, again: Rows, given: PriceRange[] | undefined) {
  const bounds = await rows
    .select((eb) => [eb.fn.min('products.price').as('lo'), eb.fn.max('products.price').as('hi')])
    .executeTakeFirstOrThrow();
  const min = bounds.lo === null ? null : Number(bounds.lo);
  const max = bounds.hi === null ? null : Number(bounds.hi);
  const ranges = given ?? (min === null || max === null ? [] : chosenRanges(min, max));
  if (ranges.length === 0) return { min, max, ranges: [] };
  const sums = ranges.map((r, i) => {
    const from = r.from === null ? sql`1 = 1` : sql`products.price >= ${r.from}`;
    const to = r.to === null ? sql`1 = 1` : sql`products.price < ${r.to}`;
    return sql<number>`sum(case when ${from} and ${to} then 1 else 0 end)`.as(`r${i}`);
  });
  const counted = (await again.select(sums).executeTakeFirstOrThrow()) as Record<string, unknown>;
  return { min, max, ranges: ranges.map((r, i) => ({ from: r.from, to: r.to, count: Number(counted[`r${i}`] ?? 0) })) };
}

async function inStockFacet(rows: Rows) {
  const row = (await rows
    .select([sql<number>`sum(case when ${SHOWN_IN_STOCK} then 1 else 0 end)`.as('t'), sql<number>`count(*)`.as('n')])
    .executeTakeFirstOrThrow()) as { t: unknown; n: unknown };
  const t = Number(row.t ?? 0);
  return { true: t, false: Number(row.n) - t };
}

async function inventoryFacet(rows: Rows) {
  const counted = await rows
    .select(['products.inventory_type as type', sql<number>`count(*)`.as('n')])
    .groupBy('products.inventory_type')
    .execute();
  const out = { simple: 0, advanced: 0 };
  for (const r of counted) out[r.type] = Number(r.n);
  return out;
}
