import type { Kysely } from 'kysely';
import { selectRows } from '../../db/array-rows.js';
import type { Database } from '../../db/schema.js';
import { type KeysetKey, walkPages } from '../../db/keyset.js';
import { orderColumn, tieDirection } from './grouped-page.js';
import { type ProductFilter, matching, ordered } from './list.js';
import { SHOWN, SHOWN_COLUMNS, type ShownProductRow } from './present.js';
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
  const ordering = [...order.map(orderColumn), { column: 'id', dir: tieDirection(order) }];
  const columns = ordering.map((k) => k.column as keyof ShownProductRow);
  const keys: KeysetKey[] = ordering.map(({ column, dir }) => ({ column: `products.${column}`, dir }));
  yield* walkPages({
    keys,
    pageSize,
    read: (after, limit) => {
      const q = ordered(matching(db, filter, true).select(SHOWN_COLUMNS), order);
      return selectRows(db, (after ? q.where(after) : q).limit(limit), SHOWN);
    },
    keyOf: (row) => columns.map((column) => row[column]),
    complete: async (rows) => ({
      rows,
      categories: await categoryIdsOf(
        db,
        filter.projectId,
        rows.map((r) => r.id),
      ),
    }),
  });
}
