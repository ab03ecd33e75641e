import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type KeysetKey, keysetAfter } from '../../db/keyset.js';
import type { OrderItemRow, OrderRow } from './present.js';
import { type OrderFilter, filtered, itemsOf } from './repository.js';

// Every order of a list (its filters), newest first as the list, page after page for the
// export: keyset pages on (created_at, id) descending, the order of the orders_by_* indexes.

const KEYS: KeysetKey[] = [
  { column: 'created_at', dir: 'desc' },
  { column: 'id', dir: 'desc' },
];

export async function* walkOrders(
  db: Kysely<Database>,
  filter: OrderFilter,
  pageSize: number,
): AsyncGenerator<{ rows: OrderRow[]; items: Map<number, OrderItemRow[]> }> {
  let last: OrderRow | undefined;
  for (;;) {
    let q = filtered(db, filter).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
    if (last) q = q.where(keysetAfter(KEYS, [last.created_at, last.id]));
    const rows = await q.limit(pageSize).execute();
    if (rows.length === 0) return;
    const items = await itemsOf(
      db,
      filter.projectId,
      rows.map((r) => r.id),
    );
    yield { rows, items };
    if (rows.length < pageSize) return;
    last = rows[rows.length - 1];
  }
}
