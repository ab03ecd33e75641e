import type { FulfillmentStatus, Order, OrderListQuery, OrderUpdate, PaymentStatus } from 'storefront-client';

// The order filters of SPEC 4.5 and the changes an operator makes, shared by the list, the
// detail and the bulk bar. The address holds the filters exactly as the API takes them.

export const PAYMENT: PaymentStatus[] = ['pending', 'paid', 'failed', 'refunded'];
export const FULFILLMENT: FulfillmentStatus[] = ['unfulfilled', 'shipped', 'ready_for_pickup', 'delivered', 'returned'];
export const FILTERS = [
  'payment_status',
  'fulfillment_status',
  'is_canceled',
  'is_archived',
  'customer_email',
  'created_after',
  'created_before',
  'perpage',
  'page',
] as const;

/** The list query of the address: every filter the API knows, passed on as written. */
export function orderQuery(params: URLSearchParams): OrderListQuery {
  const query: Record<string, string | number> = {};
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value === null || value === '') continue;
    query[name] = ['created_after', 'created_before', 'perpage', 'page'].includes(name) ? Number(value) : value;
  }
  return query;
}

/** A change as a short sentence: "fulfillment → shipped". */
export function describe(change: OrderUpdate): string {
  return Object.entries(change)
    .map(([name, value]) => `${name.replace(/_status$/, '').replace(/_/g, ' ')} → ${String(value).replace(/_/g, ' ')}`)
    .join(', ');
}

/**
 * The changes offered for one or many orders. Those that hide or destroy (`asks`) are asked
 * first, and the detail offers their `undo` once the order carries the flag.
 */
export interface Change {
  label: string;
  change: OrderUpdate;
  asks?: { flag: 'is_canceled' | 'is_archived'; undo: string };
}

export const CHANGES: Change[] = [
  { label: 'Mark shipped', change: { fulfillment_status: 'shipped' } },
  { label: 'Mark delivered', change: { fulfillment_status: 'delivered' } },
  { label: 'Ready for pickup', change: { fulfillment_status: 'ready_for_pickup' } },
  { label: 'Mark paid', change: { payment_status: 'paid' } },
  { label: 'Mark refunded', change: { payment_status: 'refunded' } },
  { label: 'Archive', change: { is_archived: true }, asks: { flag: 'is_archived', undo: 'Unarchive' } },
  { label: 'Cancel', change: { is_canceled: true }, asks: { flag: 'is_canceled', undo: 'Un-cancel' } },
];

/** The change a button makes on this order: a flag already set is offered undone. */
export function changeFor(c: Change, order: Order): Change {
  if (!c.asks || !order[c.asks.flag]) return c;
  return { label: c.asks.undo, change: { [c.asks.flag]: false } };
}

/** The fields an operator compares when an order changed under them. */
export function differences(mine: Order, theirs: Order): string[] {
  const names = ['payment_status', 'fulfillment_status', 'is_canceled', 'is_archived', 'delivery_information'] as const;
  return names.filter((n) => mine[n] !== theirs[n]).map((n) => `${n}: ${String(mine[n])} → ${String(theirs[n])}`);
}
