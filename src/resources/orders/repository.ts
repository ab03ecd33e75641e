import type { Kysely, SelectQueryBuilder } from 'kysely';
import { rowById } from '../../db/by-id.js';
import type { Reads } from '../../db/reads.js';
import type { CountScope } from '../../cache/count-cache.js';
import type { Database } from '../../db/schema.js';
import { type OrderItemRow, type OrderRow, emailKey } from './present.js';

export interface OrderFilter {
  projectId: string;
  paymentStatus?: OrderRow['payment_status'];
  fulfillmentStatus?: OrderRow['fulfillment_status'];
  isCanceled?: boolean;
  isArchived?: boolean;
  customerEmail?: string;
  createdAfter?: number;
  createdBefore?: number;
}

// Every filter is an equality on a column that leads one of the orders_by_* indexes
// (project_id, <filter>, created_at, id), so a list narrowed by any one filter reads that
// index backwards, newest first, and the created_after/before range is a bound on the same
// index; the other filters of a combination are checked on the rows it yields.
export function filtered(db: Kysely<Database>, f: OrderFilter): SelectQueryBuilder<Database, 'orders', object> {
  let q = db.selectFrom('orders').where('project_id', '=', f.projectId);
  if (f.paymentStatus !== undefined) q = q.where('payment_status', '=', f.paymentStatus);
  if (f.fulfillmentStatus !== undefined) q = q.where('fulfillment_status', '=', f.fulfillmentStatus);
  if (f.isCanceled !== undefined) q = q.where('is_canceled', '=', f.isCanceled ? 1 : 0);
  if (f.isArchived !== undefined) q = q.where('is_archived', '=', f.isArchived ? 1 : 0);
  if (f.customerEmail !== undefined) q = q.where('email_key', '=', emailKey(f.customerEmail));
  if (f.createdAfter !== undefined) q = q.where('created_at', '>', f.createdAfter);
  if (f.createdBefore !== undefined) q = q.where('created_at', '<', f.createdBefore);
  return q;
}

/** One page of orders with their items and the count of all matches, read in one snapshot. */
export async function listOrders(
  reads: Reads,
  filter: OrderFilter,
  page: number,
  perpage: number,
  counts?: CountScope,
): Promise<{ rows: OrderRow[]; total: number; items: Map<number, OrderItemRow[]> }> {
  return reads.snapshot(async (db) => {
    const { rows, total } = await ordersPage(db, filter, page, perpage, counts);
    const items = await itemsOf(
      db,
      filter.projectId,
      rows.map((r) => r.id),
    );
    return { rows, total, items };
  });
}

/** An order and its items, read by primary key; undefined when there is no such order. */
export async function getOrder(
  reads: Reads,
  projectId: string,
  id: number,
): Promise<{ row: OrderRow; items: OrderItemRow[] } | undefined> {
  const row = await findOrder(reads.point, projectId, id);
  if (!row) return undefined;
  const items = await itemsOf(reads.point, projectId, [id]);
  return { row, items: items.get(id) ?? [] };
}

/** One page of orders, newest first (created_at desc, then id desc), and the count of all matches. */
async function ordersPage(
  db: Kysely<Database>,
  filter: OrderFilter,
  page: number,
  perpage: number,
  counts?: CountScope,
): Promise<{ rows: OrderRow[]; total: number }> {
  const count = async () =>
    Number(
      (
        await filtered(db, filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  // The total is cached per filter and data_version (src/cache/count-cache.ts).
  const key = JSON.stringify([
    'orders',
    { ...filter, customerEmail: filter.customerEmail === undefined ? undefined : emailKey(filter.customerEmail) },
  ]);
  const [rows, total] = await Promise.all([
    filtered(db, filter)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(perpage)
      .offset((page - 1) * perpage)
      .execute(),
    counts ? counts.cache.get(counts.project, 'orders', key, count) : count(),
  ]);
  return { rows, total };
}

export async function findOrder(db: Kysely<Database>, projectId: string, id: number): Promise<OrderRow | undefined> {
  return rowById(db, 'orders', projectId, id);
}

/** Items of each order, in stored position order (one query for a whole page). */
export async function itemsOf(
  db: Kysely<Database>,
  projectId: string,
  orderIds: number[],
): Promise<Map<number, OrderItemRow[]>> {
  const out = new Map<number, OrderItemRow[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return out;
  const rows = await db
    .selectFrom('order_items')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('position')
    .execute();
  for (const r of rows) out.get(r.order_id)?.push(r);
  return out;
}
