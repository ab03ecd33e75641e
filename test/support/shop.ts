import type { TestContext } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Backend } from '../../src/db/connect.js';
import { importDocument } from '../../src/import/import.js';
import type { OrderRecord } from '../../src/resources/orders/record.js';
import type { UserRecord } from '../../src/resources/users/record.js';
import { type TestApp, testApp } from './app.js';

// A small shop whose users and orders are chosen so that every ordering rule and filter of
// the users and orders lists has something to tell apart: ties on created_at, e-mail
// addresses in mixed case, every status, and a second project that reuses the same ids.

export const SHOP = 'shop';
export const OTHER = 'other';

export const SHOP_ORDERS: OrderRecord[] = [
  order(1, 1000, 'ada@example.com', 'paid', 'shipped', false, false, [
    { product_id: 12, name: 'Linen shirt', quantity: 2, price: 4900 },
    { product_id: null, name: 'A removed scarf', quantity: 1, price: 1500 },
  ]),
  order(2, 2000, 'Ada@Example.com', 'pending', 'unfulfilled', false, false),
  order(3, 2000, 'bob@example.com', 'paid', 'delivered', true, false),
  order(4, 3000, 'bob@example.com', 'refunded', 'returned', false, true),
  order(5, 4000, 'ADA@EXAMPLE.COM', 'failed', 'ready_for_pickup', true, true),
  order(6, 5000, 'carol@example.com', 'paid', 'unfulfilled', false, false),
];

export const SHOP_USERS: UserRecord[] = [
  { id: 1, email: 'ada@example.com', name: 'Ada', email_verified: true, created_at: 1000, last_login_at: 1500 },
  {
    id: 2,
    email: 'bob@example.com',
    name: 'Bob',
    email_verified: false,
    created_at: 2000,
    last_login_at: null,
    // Stored order is kept, not re-sorted by plan, price or time.
    subscriptions: [
      { plan_id: 2, price_id: 21, status: 'canceled', started_at: 2100, canceled_at: 2200 },
      { plan_id: 1, price_id: 10, status: 'active', started_at: 2300, canceled_at: null },
      { plan_id: 1, price_id: 11, status: 'trialing', started_at: 2400 },
    ],
  },
  {
    id: 3,
    email: 'carol@example.com',
    name: 'Carol',
    created_at: 2000,
    subscriptions: [{ plan_id: 1, price_id: 10, status: 'past_due', started_at: 2050 }],
  },
  { id: 4, email: 'dan@example.com', name: 'Dan', created_at: 3000 },
  { id: 5, email: 'eve@example.com', name: 'Eve', created_at: 500 },
];

function order(
  id: number,
  created_at: number,
  customer_email: string,
  payment_status: OrderRecord['payment_status'],
  fulfillment_status: OrderRecord['fulfillment_status'],
  is_canceled: boolean,
  is_archived: boolean,
  items: OrderRecord['items'] = [{ product_id: 12, name: 'Linen shirt', quantity: 1, price: 4900 }],
): OrderRecord {
  const name = customer_email.split('@')[0];
  return {
    id,
    created_at,
    customer_email,
    customer_name: name,
    items,
    payment_status,
    fulfillment_status,
    is_canceled,
    is_archived,
    delivery_information: '',
  };
}

export function shopDocument() {
  return {
    project: { id: SHOP, name: 'Shop', currency: 'EUR' },
    products: [{ id: 12, handle: 'linen-shirt', name: 'Linen shirt', price: 4900 }],
    plans: [
      {
        id: 1,
        name: 'Basic',
        prices: [
          { id: 10, amount: 500, interval: 'month' },
          { id: 11, amount: 5000, interval: 'year' },
        ],
      },
      { id: 2, name: 'Old', status: 'archived', prices: [{ id: 21, amount: 900, interval: 'month' }] },
    ],
    users: SHOP_USERS,
    orders: SHOP_ORDERS,
  };
}

/** Another project reusing id 1, with user 42 and order 77 that the shop lacks: nothing of it may show through the shop's key or paths. */
export function otherDocument() {
  return {
    project: { id: OTHER, name: 'Other', currency: 'USD' },
    users: [
      { id: 1, email: 'other@example.com', created_at: 9000 },
      { id: 42, email: 'x@example.com', created_at: 9001 },
    ],
    orders: [
      { id: 1, customer_email: 'ada@example.com', created_at: 9000, payment_status: 'paid' },
      { id: 77, customer_email: 'ada@example.com', created_at: 9001 },
    ],
  };
}

export interface Shop extends TestApp {
  /** a key of the shop project */
  shopKey: string;
  /** a GET (or other method) with the shop's key, unless headers say otherwise */
  call(url: string, options?: Omit<InjectOptions, 'url'>): Promise<LightMyRequestResponse>;
  /** a POST of a JSON body with the shop's key */
  post(url: string, body: unknown): Promise<LightMyRequestResponse>;
}

export async function shopApp(t: TestContext, backend: Backend): Promise<Shop> {
  const base = await testApp(t, backend);
  await importDocument(base.storage.db, shopDocument());
  await importDocument(base.storage.db, otherDocument());
  const shopKey = await base.key(SHOP);
  const call: Shop['call'] = (url, options = {}) =>
    base.app.inject({
      method: 'GET',
      ...options,
      url: `/v2/projects/${SHOP}${url}`,
      headers: { authorization: `Bearer ${shopKey}`, ...options.headers },
    });
  const post: Shop['post'] = (url, body) =>
    call(url, { method: 'POST', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { ...base, shopKey, call, post };
}

/** The ids of a list answer, in order. */
export function ids(response: LightMyRequestResponse): number[] {
  return (response.json().data as Array<{ id: number }>).map((r) => r.id);
}

/** The error envelope of a 400, checked in full shape, with the field it names. */
export function fieldOf(response: LightMyRequestResponse): string | undefined {
  return response.json().error?.details?.[0]?.field;
}
