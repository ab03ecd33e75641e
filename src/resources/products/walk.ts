import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type KeysetKey, keysetAfter } from '../../db/keyset.js';
import { orderColumn, tieDirection } from './grouped-page.js';
import { type ProductFilter, matching, ordered } from './list.js';
import { SHOWN_COLUMNS, type ShownProductRow } from './present.js';
import type { OrderClause } from './schemas.js';
import { categoryIdsOf } from './repository.js';

// Every product of a list (its filters, its `order`), page after page, for the export: keyset
// pages (src/db/keyset.ts) in the list's own order, so that the walk reads each row once at
// any size and holds one page at a time. The rows are tested as the order's index is walked
// (`matching(…, dense)`): over the whole walk that reads the project once, however few match.

export interface ProductPage {
  rows: ShownProductRow[];
  categories: Map<number, number[]>;
}

export async function* walkProducts(
  db: Kysely<Database>,
  filter: ProductFilter,
  order: OrderClause[],
  pageSize: number,
): AsyncGenerator<ProductPage> {
  // A search term holding the field separator could only match across two fields (list.ts).
  if (filter.search?.includes('\u001f')) return;
  const keys: KeysetKey[] = [
    ...order.map((clause) => {
      const { column, dir } = orderColumn(clause);
      return { column: `products.${column}`, dir };
    }),
    { column: 'products.id', dir: tieDirection(order) },
  ];
  let last: ShownProductRow | undefined;
  for (;;) {
    let q = ordered(matching(db, filter, true).select(SHOWN_COLUMNS), order);
    if (last) {
      const values = keys.map((k) => last![k.column.slice('products.'.length) as keyof ShownProductRow]);
      q = q.where(keysetAfter(keys, values));
    }
    const rows = await q.limit(pageSize).execute();
    if (rows.length === 0) return;
    const categories = await categoryIdsOf(
      db,
      filter.projectId,
      rows.map((r) => r.id),
    );
    yield { rows, categories };
    if (rows.length < pageSize) return;
    last = rows[rows.length - 1];
  }
}
