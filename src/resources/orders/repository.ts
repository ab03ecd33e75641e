import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Reads } from '../../db/reads.js';
import type { CountScope } from '../../cache/count-cache.js';
import { recordChanges } from '../../changes/record.js';
import { bumpDataVersion } from '../../db/data-version.js';
import type { Database } from '../../db/schema.js';
import { forUpdate } from '../../db/dialect.js';
import { enqueueEvents, wakeDelivery } from '../../webhooks/outbox.js';
import { type OrderItemRow, type OrderRow, emailKey, presentOrder } from './present.js';
import type { OrderUpdate } from './schemas.js';

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
function filtered(db: Kysely<Database>, f: OrderFilter): SelectQueryBuilder<Database, 'orders', object> {
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
    counts ? counts.cache.get(counts.project, key, count) : count(),
  ]);
  return { rows, total };
}

export async function findOrder(db: Kysely<Database>, projectId: string, id: number): Promise<OrderRow | undefined> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
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

/**
 * Applies a partial update in one transaction and returns the order as it now stands, with
 * its items. Only the columns sent are written, and the row is locked while it is read, so
 * two concurrent updates of different fields both survive and each answer shows a state that
 * really existed. Undefined when there is no such order. `check` runs on the locked current
 * order before anything is written (If-Match): it throws to refuse the update.
 */
export async function updateOrder(
  db: Kysely<Database>,
  projectId: string,
  id: number,
  changes: OrderUpdate,
  check?: (trx: Kysely<Database>, current: OrderRow) => Promise<void>,
): Promise<{ row: OrderRow; items: OrderItemRow[] } | undefined> {
  const updated = await db.transaction().execute(async (trx) => {
    // First, so that the project row is locked before the order row, as every writer does;
    // cached order totals (src/cache/count-cache.ts) are keyed by this version.
    await bumpDataVersion(trx, projectId);
    const select = trx.selectFrom('orders').selectAll().where('project_id', '=', projectId).where('id', '=', id);
    const current = await forUpdate(trx, select).executeTakeFirst();
    if (!current) return undefined;
    if (check) await check(trx, current);

    const set: Partial<OrderRow> = { updated_at: Math.floor(Date.now() / 1000) };
    if (changes.payment_status !== undefined) set.payment_status = changes.payment_status;
    if (changes.fulfillment_status !== undefined) set.fulfillment_status = changes.fulfillment_status;
    if (changes.is_canceled !== undefined) set.is_canceled = flag(changes.is_canceled);
    if (changes.is_archived !== undefined) set.is_archived = flag(changes.is_archived);
    if (changes.delivery_information !== undefined) set.delivery_information = changes.delivery_information;

    await trx.updateTable('orders').set(set).where('project_id', '=', projectId).where('id', '=', id).execute();
    await recordChanges(trx, projectId, [{ type: 'order', id, action: 'upsert' }]);
    const items = (await itemsOf(trx, projectId, [id])).get(id) ?? [];
    const row = { ...current, ...set };
    // In this transaction: the event commits with the change (src/webhooks/outbox.ts).
    await enqueueEvents(trx, projectId, [{ type: 'order.updated', data: presentOrder(row, items) }]);
    return { row, items };
  });
  wakeDelivery();
  return updated;
}

/** `true`, `"true"` → 1; `false`, `"false"` → 0 (the schema lets nothing else through). */
function flag(value: boolean | 'true' | 'false'): number {
  return value === true || value === 'true' ? 1 : 0;
}
