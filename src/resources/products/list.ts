import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { CountScope } from '../../cache/count-cache.js';
import { misjudgesLike, offsetReadsSkippedRows } from '../../db/dialect.js';
import type { Reads } from '../../db/reads.js';
import type { Database } from '../../db/schema.js';
import { containsCondition, searchCondition } from '../../db/search-index.js';
import { keptCount } from './counts.js';
import { keptGramCount } from './grams.js';
import { PLAN_LIMITS } from './plan-limits.js';
import { SHOWN_COLUMNS, type ShownProductRow, compareCodePoints, foldCase } from './present.js';
import type { OrderClause } from './schemas.js';
import { groupedPage, orderColumn, tieDirection } from './grouped-page.js';
import { categoryIdsOf } from './repository.js';

// The products list: which rows, in which order, and their exact total. The total comes
// first, from the kept counts (counts.ts, grams.ts) when it can: with it, the plan is chosen
// here, the same on both backends, instead of by planners whose estimates of a LIKE or of a
// category's share can be far off. With T matches of N products, walking the order's index
// and testing each row reads about (offset + perpage) · N / T rows; starting from the
// matches (the category's links, the trigram index) reads and sorts T. Take the cheaper.

export interface ProductFilter {
  projectId: string;
  includeHidden: boolean;
  categoryId?: number;
  search?: string;
  ids?: number[];
}

/**
 * A page of products, their total and each row's category ids. `ids=` reads at most 100 rows
 * by primary key: on the point connection, its rows and their categories are read by two
 * statements back to back, each seeing every commit before it, as on PostgreSQL (read
 * committed). Every other list reads its page, total and categories in one snapshot.
 */
export async function listProducts(
  reads: Reads,
  filter: ProductFilter,
  order: OrderClause[],
  page: number,
  perpage: number,
  counts?: CountScope,
): Promise<{ rows: ShownProductRow[]; total: number; categories: Map<number, number[]> }> {
  const read = async (db: Kysely<Database>) => {
    const { rows, total } = await productsPage(db, filter, order, page, perpage, counts);
    const categories = await categoryIdsOf(
      db,
      filter.projectId,
      rows.map((r) => r.id),
    );
    return { rows, total, categories };
  };
  return filter.ids === undefined ? reads.snapshot(read) : read(reads.point);
}

async function productsPage(
  db: Kysely<Database>,
  filter: ProductFilter,
  order: OrderClause[],
  page: number,
  perpage: number,
  counts?: CountScope,
): Promise<{ rows: ShownProductRow[]; total: number }> {
  // A search term holding the field separator could only match across two fields.
  if (filter.search?.includes('\u001f')) return { rows: [], total: 0 };
  const offset = (page - 1) * perpage;
  if (filter.ids) {
    const rows = await byIds(db, filter, order);
    return { rows: rows.slice(offset, offset + perpage), total: rows.length };
  }
  const narrowed = filter.categoryId !== undefined || filter.search !== undefined;
  const whole = { projectId: filter.projectId, includeHidden: filter.includeHidden };
  const [total, all] = await Promise.all([
    totalOf(db, filter, counts),
    narrowed ? totalOf(db, whole, counts) : undefined,
  ]);
  if (offset >= total) return { rows: [], total };
  const dense = all === undefined || total * total > (offset + perpage) * all;
  if (order.length > 1 && dense) {
    const rowsOf = () => matching(db, filter, true);
    const projectRows = () => matching(db, whole, true);
    return { rows: await groupedPage(db, rowsOf, projectRows, order, offset, perpage), total };
  }
  return { rows: await pageOf(db, filter, order, offset, perpage, dense), total };
}

/**
 * The exact number of products the filter matches: a kept count without a search (in all
 * or in the category), a kept gram count for a term of 1 to 3 characters alone, else a count
 * of the matches (cached per data version when `counts` is given).
 */
function totalOf(db: Kysely<Database>, f: ProductFilter, counts?: CountScope): Promise<number> {
  const counted = async () => {
    const gram =
      f.categoryId === undefined
        ? await keptGramCount(db, f.projectId, foldCase(f.search!), f.includeHidden)
        : undefined;
    if (gram !== undefined) return gram;
    const row = await matching(db, f, false)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const count = f.search === undefined ? () => keptCount(db, f.projectId, f.categoryId, f.includeHidden) : counted;
  return counts ? counts.cache.get(counts.project, 'products', filterKey(f), count) : count();
}

/** The filter as a count-cache key: every field that changes which rows match. */
function filterKey(f: ProductFilter): string {
  return JSON.stringify(['products', f.includeHidden, f.categoryId ?? null, f.search ?? null]);
}

/**
 * The rows of a filter. `dense`: the query walks the order's index and tests each row (a
 * category link probed by primary key, the term found in the row's text); otherwise it
 * starts from the matches: the category's links, the trigram index.
 */
export function matching(
  db: Kysely<Database>,
  f: ProductFilter,
  dense: boolean,
): SelectQueryBuilder<Database, 'products', object> {
  let q = db.selectFrom('products').where('products.project_id', '=', f.projectId);
  if (!f.includeHidden) q = q.where('products.show_in_store', '=', 1);
  if (f.categoryId !== undefined) {
    const categoryId = f.categoryId;
    q = dense
      ? q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('product_categories as pc')
              .select(sql`1`.as('one'))
              .whereRef('pc.project_id', '=', 'products.project_id')
              .whereRef('pc.product_id', '=', 'products.id')
              .where('pc.category_id', '=', categoryId),
          ),
        )
      : q.where('products.id', 'in', (eb) =>
          eb
            .selectFrom('product_categories as pc')
            .select('pc.product_id')
            .where('pc.project_id', '=', f.projectId)
            .where('pc.category_id', '=', categoryId),
        );
  }
  if (f.ids) q = q.where('products.id', 'in', f.ids);
  if (f.search) {
    const term = foldCase(f.search);
    // Within ≤ 100 ids, or walking the order's index, each row is tested; else the trigram index finds them.
    q = q.where(f.ids || dense ? containsCondition(db, term) : searchCondition(db, term));
  }
  return q;
}

/**
 * `ids=`: at most 100 rows, fetched by primary key and then sorted here, all of them (the
 * page is cut by the caller, and their number is the total). Sorted in SQL, both planners
 * could walk the ordering's index over the whole catalog instead, testing each row against
 * the list (that read most of the project for 50 random ids), and a sort of copied rows
 * cost SQLite a third of the read.
 */
async function byIds(db: Kysely<Database>, filter: ProductFilter, order: OrderClause[]): Promise<ShownProductRow[]> {
  const rows = await matching(db, filter, true).select(SHOWN_COLUMNS).execute();
  return rows.sort(compareIn(order));
}

/** `ordered`'s order in JavaScript: the clauses' columns, then id (`tieDirection`). */
function compareIn(order: OrderClause[]): (a: ShownProductRow, b: ShownProductRow) => number {
  const keys = order.map(orderColumn);
  const idSign = tieDirection(order) === 'desc' ? -1 : 1;
  return (a, b) => {
    for (const { column, dir } of keys) {
      const x = a[column];
      const y = b[column];
      const c = typeof x === 'string' ? compareCodePoints(x, y as string) : x - (y as number);
      if (c !== 0) return dir === 'desc' ? -c : c;
    }
    return (a.id - b.id) * idSign;
  };
}

/** A page of a filter: any order over sparse matches, one clause over dense ones. */
async function pageOf(
  db: Kysely<Database>,
  filter: ProductFilter,
  order: OrderClause[],
  offset: number,
  perpage: number,
  dense: boolean,
): Promise<ShownProductRow[]> {
  if (!dense) {
    // From the matches: their ids sorted (SQLite sorted whole rows, descriptions and all, 3
    // to 5 times slower), then the page's rows by primary key. On PostgreSQL a term's matches
    // are gathered first (MATERIALIZED), so that its planner cannot walk the order's index
    // instead, its estimate of a LIKE being rough; a category's it estimates well.
    const ids =
      misjudgesLike(db) && filter.search !== undefined
        ? await ordered(
            db
              .with(
                (cte) => cte('m').materialized(),
                () => matching(db, filter, false).select('products.id'),
              )
              .selectFrom('products')
              .innerJoin('m', 'm.id', 'products.id')
              .where('products.project_id', '=', filter.projectId)
              .select('products.id'),
            order,
          )
            .limit(perpage)
            .offset(offset)
            .execute()
        : await ordered(matching(db, filter, false).select('products.id'), order)
            .limit(perpage)
            .offset(offset)
            .execute();
    return rowsByIds(
      db,
      filter.projectId,
      ids.map((r) => r.id),
    );
  }
  const q = ordered(matching(db, filter, true).select(SHOWN_COLUMNS), order);
  if (!offsetReadsSkippedRows(db) || offset < PLAN_LIMITS.deepOffset) return q.limit(perpage).offset(offset).execute();
  // PostgreSQL reads the row of every entry it skips: deep pages walk the order's index for
  // their ids alone (the index holds show_in_store), then read the page's rows.
  const ids = await q.clearSelect().select('products.id').limit(perpage).offset(offset).execute();
  return rowsByIds(
    db,
    filter.projectId,
    ids.map((r) => r.id),
  );
}

/** The rows of `ids`, in that order. */
async function rowsByIds(db: Kysely<Database>, projectId: string, ids: number[]): Promise<ShownProductRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('products')
    .select(SHOWN_COLUMNS)
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
  const at = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
}

/** The query in the order's clauses; rows still tied by id, in the direction of the last clause. */
export function ordered<QB extends SelectQueryBuilder<Database, 'products', object>>(q: QB, order: OrderClause[]): QB {
  for (const clause of order) {
    const { column, dir } = orderColumn(clause);
    q = q.orderBy(`products.${column}`, dir) as QB;
  }
  return q.orderBy('products.id', tieDirection(order)) as QB;
}
