import { defuse } from '../formula.js';
import type { Order } from './schemas.js';

// An order as a row of the orders CSV export (docs/API.md, "CSV"): one row per order, its
// items as `2 × Linen shirt; 1 × Wool scarf` (each item's product and price are in the
// project export), times in ISO 8601 UTC. Export only: an import takes orders as JSON.

export const ORDER_CSV_COLUMNS = [
  'id',
  'customer_email',
  'customer_name',
  'items',
  'total',
  'currency',
  'payment_status',
  'fulfillment_status',
  'is_canceled',
  'is_archived',
  'delivery_information',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Order)[];

/** An order's cells, in the order of ORDER_CSV_COLUMNS, each defused (formula.ts). */
export function orderCells(o: Order): string[] {
  const cells = [
    String(o.id),
    o.customer_email,
    o.customer_name,
    o.items.map((i) => `${i.quantity} × ${i.name}`).join('; '),
    String(o.total),
    o.currency,
    o.payment_status,
    o.fulfillment_status,
    String(o.is_canceled),
    String(o.is_archived),
    o.delivery_information,
    isoTime(o.created_at),
    isoTime(o.updated_at),
  ];
  for (let i = 0; i < cells.length; i++) cells[i] = defuse(cells[i]);
  return cells;
}

/** Unix seconds as ISO 8601 UTC, to the second: `2025-11-21T04:40:00Z`. */
export function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
