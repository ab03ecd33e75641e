import { type Kysely, sql } from 'kysely';
import { idRows } from '../../../db/id-rows.js';
import type { Database } from '../../../db/schema.js';
import { SHOWN_IN_STOCK, type ShopFilters, withShopFilters } from '../filters.js';
import { orderColumn } from '../grouped-page.js';
import { type ProductFilter, matching, ordered } from '../list.js';
import type { OrderClause } from '../schemas.js';
import type { FacetRow } from './facets.js';
import { type Candidates, byRelevance, withRelevance } from './relevance.js';

// A request's match set, read once: the products holding a candidate of every `q` word and
// passing the filters given to SQL, in the request's order, each with the columns the other
// filters and the facets read. The postings of the query's words are aggregated by this one
// statement only; the page, the total and every facet are taken from its rows (page.ts).

export interface MatchQuery {
  filter: ProductFilter;
  /** per `q` word its candidates; undefined without `q` */
  candidates: Candidates | undefined;
  /** relevance first (CONTRACT 17), else the order's clauses */
  relevance: boolean;
  order: OrderClause[];
  /** the filters applied in SQL (the others are the facets' own, tested on the rows) */
  inSql: ShopFilters;
}

/** A row of the match set, its total beside it when the set was cut to a page. */
type Read = { id: unknown; price: unknown; inventory_type: 'simple' | 'advanced'; stocked: unknown; total?: unknown };

/** Every row of the match set, in order. */
export async function matchRows(db: Kysely<Database>, m: MatchQuery): Promise<FacetRow[]> {
  if (m.candidates?.some((c) => c.size === 0)) return [];
  const rows = (await query(db, m).execute()) as Read[];
  return rows.map(toRow);
}

/** The ids of the match set, in order (the export's walk: walk-matches.ts). */
export async function matchIds(db: Kysely<Database>, m: MatchQuery): Promise<number[]> {
  if (m.candidates?.some((c) => c.size === 0)) return [];
  const rows = (await query(db, m).execute()) as Read[];
  return rows.map((r) => Number(r.id));
}

/** One page of the match set and the set's exact total, in one statement (the count a window over the same rows). */
export async function matchPage(
  db: Kysely<Database>,
  m: MatchQuery,
  offset: number,
  limit: number,
): Promise<{ ids: number[]; total: number }> {
  if (m.candidates?.some((c) => c.size === 0)) return { ids: [], total: 0 };
  const rows = (await query(db, m)
    .select(sql<number>`count(*) over ()`.as('total'))
    .limit(limit)
    .offset(offset)
    .execute()) as Read[];
  if (rows.length > 0) return { ids: rows.map((r) => Number(r.id)), total: Number(rows[0].total) };
  if (offset === 0) return { ids: [], total: 0 };
  // Past the last page: no row carries the total, so it is counted.
  return { ids: [], total: (await matchRows(db, m)).length };
}

/** The categories of each of `rows`, read by their ids in one statement. */
export async function withCategories(db: Kysely<Database>, projectId: string, rows: FacetRow[]): Promise<void> {
  if (rows.length === 0) return;
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const r of rows) r.categories = [];
  const { rows: links } = await sql<{ product_id: unknown; category_id: unknown }>`select product_id, category_id
    from product_categories
    where project_id = ${projectId} and product_id in (select id from ${idRows(db, [...byId.keys()])})`.execute(db);
  for (const l of links) byId.get(Number(l.product_id))?.categories!.push(Number(l.category_id));
}

function toRow(r: Read): FacetRow {
  return {
    id: Number(r.id),
    price: Number(r.price),
    stocked: Number(r.stocked) === 1,
    inventoryType: r.inventory_type,
  };
}

function query(db: Kysely<Database>, m: MatchQuery) {
  let q = withShopFilters(matching(db, m.filter, false), m.inSql);
  if (m.candidates) q = withRelevance(db, q, m.filter.projectId, m.candidates);
  const selected = q.select([
    'products.id',
    'products.price',
    'products.inventory_type',
    sql<number>`case when ${SHOWN_IN_STOCK} then 1 else 0 end`.as('stocked'),
  ]);
  return sorted(selected, m.relevance && m.candidates !== undefined, m.order);
}

/** Relevance first when asked, then the order's clauses, then newest first (CONTRACT 17); else `ordered`. */
function sorted<QB extends Parameters<typeof ordered>[0]>(q: QB, relevance: boolean, order: OrderClause[]): QB {
  if (!relevance) return ordered(q, order.length ? order : ['date_desc']);
  q = byRelevance(q);
  for (const clause of order) {
    const { column, dir } = orderColumn(clause);
    q = q.orderBy(`products.${column}`, dir) as QB;
  }
  return q.orderBy('products.created_at', 'desc').orderBy('products.id', 'desc') as QB;
}
