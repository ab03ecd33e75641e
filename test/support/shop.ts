import type { Storage } from '../../src/db/connect.js';
import { importDocument } from '../../src/import/import.js';
import type { OrderRecord } from '../../src/resources/orders/record.js';
import type { UserRecord } from '../../src/resources/users/record.js';
import { category, plan } from './records.js';

// The one fixture shop of the tests, written through the importer as a user would. Its data
// is chosen so that every ordering rule and filter has something to tell apart: names equal
// but for case, ties on price and on created_at, a hidden product (id 3, "Hidden gem."), both
// inventory modes, nested categories, plans of every status, users with subscriptions in a
// stored order, orders of every status and e-mail addresses in mixed case. The second
// project, "other", reuses the shop's ids (product, category, plan, user and order 1) and has
// records the shop lacks (hidden product 8, user 42, order 77); its names are single words
// found nowhere else ("Otherapple", …) so that a test can search any answer for a leak.

export const SHOP = 'shop';
export const OTHER = 'other';

export const SHOP_ORDERS: OrderRecord[] = [
  order(1, 1000, 'ada@example.com', 'paid', 'shipped', false, false, [
    { product_id: 7, name: 'Knife', quantity: 2, price: 2500 },
    { product_id: null, name: 'A removed scarf', quantity: 1, price: 1500 },
  ]),
  order(2, 2000, 'Ada@Example.com', 'pending', 'unfulfilled', false, false),
  order(3, 2000, 'bob@example.com', 'paid', 'delivered', true, false),
  order(4, 3000, 'bob@example.com', 'refunded', 'returned', false, true),
  order(5, 4000, 'ADA@EXAMPLE.COM', 'failed', 'ready_for_pickup', true, true),
  order(6, 5000, 'carol@example.com', 'paid', 'unfulfilled', false, false),
];

export const SHOP_USERS: UserRecord[] = [
  user(1, 'Ada', 1000, { email_verified: true, last_login_at: 1500 }),
  user(2, 'Bob', 2000, {
    email_verified: false,
    last_login_at: null,
    // Stored order is kept, not re-sorted by plan, price or time.
    subscriptions: [
      { plan_id: 2, price_id: 3, status: 'canceled', started_at: 2100, canceled_at: 2200 },
      { plan_id: 1, price_id: 1, status: 'active', started_at: 2300, canceled_at: null },
      { plan_id: 1, price_id: 2, status: 'trialing', started_at: 2400 },
    ],
  }),
  user(3, 'Carol', 2000, { subscriptions: [{ plan_id: 1, price_id: 1, status: 'past_due', started_at: 2050 }] }),
  user(4, 'Dan', 3000),
  user(5, 'Eve', 500),
];

/** A user of the shop: the e-mail address is the name in lower case at example.com. */
function user(id: number, name: string, created_at: number, more: Partial<UserRecord> = {}): UserRecord {
  return { id, email: `${name.toLowerCase()}@example.com`, name, created_at, ...more };
}

function order(
  id: number,
  created_at: number,
  customer_email: string,
  payment_status: OrderRecord['payment_status'],
  fulfillment_status: OrderRecord['fulfillment_status'],
  is_canceled: boolean,
  is_archived: boolean,
  items: OrderRecord['items'] = [{ product_id: 7, name: 'Knife', quantity: 1, price: 2500 }],
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
    categories: [
      category(1, 'fruit', 'fruit', null),
      category(2, 'berries', 'Berries', 1),
      category(3, 'apples', 'apples', 1),
      category(4, 'tools', 'Tools', null),
      category(5, 'knives', 'Knives', 4),
      category(6, 'small-knives', 'small knives', 5),
    ],
    products: [
      {
        id: 1,
        handle: 'alpha',
        name: 'apple',
        description: 'Crisp and red.',
        sku: 'APL-1',
        price: 300,
        custom_sort: 0,
        category_ids: [1, 3],
        created_at: 1000,
      },
      {
        id: 2,
        handle: 'bravo',
        name: 'Banana',
        description: 'Yellow.',
        sku: 'BAN-1',
        price: 100,
        custom_sort: 5,
        category_ids: [1],
        created_at: 3000,
      },
      {
        id: 3,
        handle: 'charlie',
        name: 'cherry',
        description: 'Hidden gem.',
        sku: 'CHE-1',
        price: 200,
        show_in_store: false,
        category_ids: [2],
        created_at: 2000,
      },
      {
        id: 4,
        handle: 'delta',
        name: 'Apple',
        description: 'Green.',
        sku: 'apl-2',
        price: 100,
        custom_sort: 2,
        inventory_type: 'advanced',
        stock_quantity: 0,
        in_stock: true,
        created_at: 2000,
      },
      {
        id: 5,
        handle: 'echo',
        name: 'Éclair',
        description: 'Contains 100% cocoa_beans.',
        sku: null,
        price: 500,
        created_at: 4000,
        images: [{ url: 'https://img.example/e.jpg', alt: 'Éclair' }],
      },
      {
        id: 6,
        handle: 'foxtrot',
        name: 'banana',
        description: 'Back\\slash.',
        sku: 'BAN-2',
        price: 100,
        inventory_type: 'advanced',
        stock_quantity: 7,
        created_at: 3000,
        category_ids: [1],
      },
      {
        id: 7,
        handle: 'golf',
        name: 'Knife',
        description: 'Sharp.',
        sku: 'KN-1',
        price: 2500,
        in_stock: false,
        custom_sort: 1,
        category_ids: [5],
        created_at: 500,
      },
    ],
    plans: [
      plan(1, 'Basic', 'active', [
        { id: 2, amount: 9000, interval: 'year' },
        { id: 1, amount: 900, interval: 'month' },
      ]),
      plan(2, 'Old', 'archived', [{ id: 3, amount: 500, interval: 'month' }]),
      plan(3, 'Gone', 'deleted'),
      plan(
        4,
        'Team',
        'active',
        [
          { id: 4, amount: 3000, interval: 'month', interval_count: 1, trial_days: 14 },
          { id: 5, amount: 3000, interval: 'month', interval_count: 3 },
        ],
        { description: 'For teams.' },
      ),
      plan(5, 'Paused', 'deactivated'),
    ],
    users: SHOP_USERS,
    orders: SHOP_ORDERS,
  };
}

export function otherDocument() {
  return {
    project: { id: OTHER, name: 'Other', currency: 'JPY' },
    categories: [category(1, 'secret', 'Secretcategory', null)],
    products: [
      { id: 1, handle: 'alpha', name: 'Otherapple', price: 1, category_ids: [1], created_at: 1 },
      { id: 8, handle: 'only-other', name: 'Otheronly', price: 1, show_in_store: false, created_at: 1 },
    ],
    plans: [plan(1, 'Otherplan', 'active')],
    users: [
      { id: 1, email: 'other@example.com', name: 'Otheruser', created_at: 9000 },
      { id: 42, email: 'x@example.com', name: 'Otheruser', created_at: 9001 },
    ],
    // The shop's customer ada@example.com has orders here too: filters must not cross projects.
    orders: [
      {
        id: 1,
        customer_email: 'ada@example.com',
        customer_name: 'Otherbuyer',
        created_at: 9000,
        payment_status: 'paid',
      },
      { id: 77, customer_email: 'otherbuyer@example.com', customer_name: 'Otherbuyer', created_at: 9001 },
    ],
  };
}

/** Imports the shop and the other project, as `storefront import` would. */
export async function seedShop(storage: Storage): Promise<void> {
  await importDocument(storage.db, shopDocument());
  await importDocument(storage.db, otherDocument());
}
