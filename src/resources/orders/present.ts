import type { Selectable } from 'kysely';
import type { OrderItemTable, OrderTable } from '../../db/schema.js';
import type { Order } from './schemas.js';

export type OrderRow = Selectable<OrderTable>;
export type OrderItemRow = Selectable<OrderItemTable>;

export function presentOrder(row: OrderRow, items: OrderItemRow[]): Order {
  return {
    id: row.id,
    customer_email: row.customer_email,
    customer_name: row.customer_name,
    items: items.map((i) => ({ product_id: i.product_id, name: i.name, quantity: i.quantity, price: i.price })),
    total: row.total,
    currency: row.currency,
    payment_status: row.payment_status,
    fulfillment_status: row.fulfillment_status,
    is_canceled: row.is_canceled === 1,
    is_archived: row.is_archived === 1,
    delivery_information: row.delivery_information,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The key `customer_email` is matched on; the import stores the same form in email_key. */
export function emailKey(email: string): string {
  return email.toLowerCase();
}
