import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type KeysetKey, walkPages } from '../../db/keyset.js';
import type { OrderItemRow, OrderRow } from './present.js';
import { type OrderFilter, filtered, itemsOf } from './repository.js';

// Every order of a list (its filters), newest first as the list, page after page for the
// export: keyset pages on (created_at, id) descending, the order of the orders_by_* indexes.

const KEYS: KeysetKey[] = [
  { column: 'created_at', dir: 'desc' },
  { column: 'id', dir: 'desc' },
];

export function walkOrders(
  db: Kysely<Database>,
  filter: OrderFilter,
  pageSize: number,
): AsyncGenerator<{ rows: OrderRow[]; items: Map<number, OrderItemRow[]> }> {
  return walkPages({
    keys: KEYS,
    pageSize,
    read: (after, limit) => {
      const q = filtered(db, filter).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
      return (after ? q.where(after) : q).limit(limit).execute();
    },
    keyOf: (row) => [row.created_at, row.id],
    complete: async (rows) => ({
      rows,
      items: await itemsOf(
        db,
        filter.projectId,
        rows.map((r) => r.id),
      ),
    }),
  });
}
