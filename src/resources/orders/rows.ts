import type { Insertable } from 'kysely';
import type { OrderItemTable, OrderTable } from '../../db/schema.js';
import { type RecordRows, type RowContext, recordTimes } from '../descriptor.js';
import { emailKey } from './present.js';
import type { OrderRecord } from './record.js';

/** The row (total defaults to the items' sum, currency to the project's) and its items. */
export function orderRows(o: OrderRecord, id: number, ctx: RowContext): RecordRows {
  const pid = ctx.projectId;
  const items = o.items ?? [];
  const { created_at, updated_at } = recordTimes(o, ctx);
  const row: Insertable<OrderTable> & { id: number } = {
    project_id: ctx.projectId,
    id,
    customer_email: o.customer_email,
    email_key: emailKey(o.customer_email),
    customer_name: o.customer_name ?? '',
    total: o.total ?? items.reduce((sum, i) => sum + i.quantity * i.price, 0),
    currency: o.currency ?? ctx.currency,
    payment_status: o.payment_status ?? 'pending',
    fulfillment_status: o.fulfillment_status ?? 'unfulfilled',
    is_canceled: o.is_canceled ? 1 : 0,
    is_archived: o.is_archived ? 1 : 0,
    delivery_information: o.delivery_information ?? '',
    created_at,
    updated_at,
  };
  const rows: Insertable<OrderItemTable>[] = items.map((i, position) => ({
    project_id: pid,
    order_id: id,
    position,
    product_id: i.product_id,
    name: i.name,
    quantity: i.quantity,
    price: i.price,
  }));
  return { row, children: { order_items: rows } };
}
