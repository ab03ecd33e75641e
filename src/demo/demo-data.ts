import type { CategoryRecord } from '../resources/categories/record.js';
import { FULFILLMENT_STATUSES, type OrderRecord, PAYMENT_STATUSES } from '../resources/orders/record.js';
import type { PlanRecord } from '../resources/plans/record.js';
import type { ProductRecord } from '../resources/products/record.js';
import type { UserRecord } from '../resources/users/record.js';

// The demo project `demo` that `npm start` loads into an empty database: a small shop with
// nested categories, hidden products, both inventory modes, three plans (one inactive),
// users with subscriptions and orders in every status. Built from a fixed seed, so every
// fresh start serves the same records; only the orders are dated back from `now` (the last
// 16 days), so that a fresh console's chart of the last 14 days is not empty.

export const DEMO_PROJECT = { id: 'demo', name: 'Demo shop', currency: 'USD' };
const BASE_TIME = 1_790_000_000; // 2026-09-21

function random(seed: number): () => number {
  // mulberry32: tiny, fast, good enough for sample data
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CATEGORIES: [number, string, string, number | null][] = [
  [1, 'clothing', 'Clothing', null],
  [2, 'shirts', 'Shirts', 1],
  [3, 'trousers', 'Trousers', 1],
  [4, 'linen', 'Linen', 2],
  [5, 'home', 'Home', null],
  [6, 'kitchen', 'Kitchen', 5],
  [7, 'cookware', 'Cookware', 6],
  [8, 'textiles', 'Textiles', 5],
  [9, 'accessories', 'Accessories', null],
  [10, 'bags', 'Bags', 9],
  [11, 'hats', 'hats and caps', 9],
];

const NOUNS: Record<number, string[]> = {
  2: ['Oxford shirt', 'Flannel shirt', 'Polo shirt', 'Denim shirt'],
  3: ['Chinos', 'Cargo trousers', 'Wool trousers'],
  4: ['Linen shirt', 'Linen trousers'],
  7: ['Cast iron pan', 'Saucepan', 'Dutch oven', 'Wok'],
  8: ['Linen towel', 'Cotton throw', 'Wool blanket'],
  10: ['Tote bag', 'Backpack', 'Weekender'],
  11: ['Sun hat', 'Baseball cap', 'Beanie'],
};
const ADJECTIVES = ['Classic', 'Light', 'Everyday', 'Heritage', 'Soft', 'Sturdy', 'Organic', 'Vintage'];
const WORDS = [
  'breathable',
  'durable',
  'handmade',
  'recycled',
  'washable',
  'lightweight',
  'waterproof',
  'organic cotton',
  'stainless steel',
  'hand-stitched',
];

/** The demo project's records; `now` (unix seconds) dates its orders. */
export function demoDocument(now = Math.floor(Date.now() / 1000)) {
  const categories: CategoryRecord[] = CATEGORIES.map(([id, handle, name, parent_id]) => ({
    id,
    handle,
    name,
    parent_id,
    created_at: BASE_TIME,
    updated_at: BASE_TIME,
  }));
  const products = demoProducts();
  const plans = demoPlans();
  const users = demoUsers(plans);
  const orders = demoOrders(users, products, now);
  return { project: DEMO_PROJECT, categories, products, plans, users, orders };
}

/** 50 products in the leaf categories, named and priced by a seeded random: the same every time. */
function demoProducts(): ProductRecord[] {
  const rnd = random(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const products: ProductRecord[] = [];
  const leafIds = Object.keys(NOUNS).map(Number);
  for (let id = 1; products.length < 50; id++) {
    const categoryId = leafIds[(id - 1) % leafIds.length];
    const name = `${pick(ADJECTIVES)} ${pick(NOUNS[categoryId])}`;
    const handle = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${id}`;
    const advanced = id % 3 === 0;
    const created_at = BASE_TIME + id * 3600 * 7;
    const parent = CATEGORIES.find(([cid]) => cid === categoryId)![3];
    products.push({
      id,
      handle,
      name,
      description: `A ${pick(WORDS)} and ${pick(WORDS)} ${name.toLowerCase()}.`,
      sku: id % 10 === 0 ? null : `SKU-${String(1000 + id)}`,
      price: (Math.floor(rnd() * 180) + 10) * 100 + (id % 2 ? 99 : 0),
      inventory_type: advanced ? 'advanced' : 'simple',
      in_stock: advanced ? true : id % 7 !== 0,
      stock_quantity: advanced ? Math.floor(rnd() * 40) * (id % 4 === 0 ? 0 : 1) : 0,
      show_in_store: id % 12 !== 0, // a few hidden products
      custom_sort: id % 5 === 0 ? id : 0,
      category_ids: parent && id % 4 === 1 ? [parent, categoryId] : [categoryId],
      images: [{ url: `https://images.example.com/demo/${handle}.jpg`, alt: name }],
      created_at,
      updated_at: created_at,
    });
  }
  return products;
}

/** Three plans: two active (one with a trial), one no longer offered. */
function demoPlans(): PlanRecord[] {
  return [
    {
      id: 1,
      name: 'Starter',
      description: 'For small shops getting going.',
      status: 'active',
      prices: [
        { id: 1, amount: 900, interval: 'month' },
        { id: 2, amount: 9000, interval: 'year' },
      ],
      created_at: BASE_TIME,
      updated_at: BASE_TIME,
    },
    {
      id: 2,
      name: 'Pro',
      description: 'Everything, with a free trial.',
      status: 'active',
      prices: [
        { id: 3, amount: 2900, interval: 'month', trial_days: 14 },
        { id: 4, amount: 29000, interval: 'year', trial_days: 14 },
      ],
      created_at: BASE_TIME,
      updated_at: BASE_TIME,
    },
    {
      id: 3,
      name: 'Legacy',
      description: 'No longer offered.',
      status: 'deactivated',
      prices: [{ id: 5, amount: 1900, interval: 'month' }],
      created_at: BASE_TIME - 86400 * 365,
      updated_at: BASE_TIME,
    },
  ];
}

/** 20 users; the even ones subscribe, through every subscription status. */
function demoUsers(plans: PlanRecord[]): UserRecord[] {
  const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Katherine', 'Linus', 'Margaret', 'Ken'];
  const LAST = [
    'Lovelace',
    'Hopper',
    'Turing',
    'Dijkstra',
    'Liskov',
    'Knuth',
    'Johnson',
    'Torvalds',
    'Hamilton',
    'Thompson',
  ];
  const SUB_STATUSES = ['active', 'trialing', 'past_due', 'canceled'] as const;
  return Array.from({ length: 20 }, (_, i) => {
    const id = i + 1;
    const name = `${FIRST[i % 10]} ${LAST[(i * 3) % 10]}`;
    const created_at = BASE_TIME + id * 86400;
    // Only even users subscribe, so step through the statuses by i / 2 to show all four.
    const status = SUB_STATUSES[Math.floor(i / 2) % 4];
    const planId = (i % 3) + 1;
    return {
      id,
      email: `${name.toLowerCase().replace(' ', '.')}${id}@example.com`,
      name,
      email_verified: i % 5 !== 4,
      created_at,
      last_login_at: i % 6 === 5 ? null : created_at + 3600 * (i + 1),
      subscriptions:
        i % 2 === 0
          ? [
              {
                plan_id: planId,
                price_id: plans[planId - 1].prices![0].id!,
                status,
                started_at: created_at,
                canceled_at: status === 'canceled' ? created_at + 86400 * 30 : null,
              },
            ]
          : [],
    };
  });
}

/** 30 orders of the users, one every 13 hours up to `now`. */
function demoOrders(users: UserRecord[], products: ProductRecord[], now: number): OrderRecord[] {
  return Array.from({ length: 30 }, (_, i) => {
    const id = 1001 + i;
    const user = users[i % users.length];
    const lines = 1 + (i % 3);
    const items = Array.from({ length: lines }, (_, k) => {
      const product = products[(i * 7 + k * 11) % products.length];
      return { product_id: product.id!, name: product.name, quantity: 1 + ((i + k) % 3), price: product.price };
    });
    // One order every 13 hours, the newest at the last full hour before `now`.
    const created_at = now - (now % 3600) - (29 - i) * 3600 * 13;
    return {
      id,
      customer_email: i % 4 === 3 ? user.email.toUpperCase() : user.email,
      customer_name: user.name,
      items,
      payment_status: PAYMENT_STATUSES[i % PAYMENT_STATUSES.length],
      fulfillment_status: FULFILLMENT_STATUSES[i % FULFILLMENT_STATUSES.length],
      is_canceled: i % 9 === 4,
      is_archived: i % 8 === 7,
      delivery_information: i % 5 === 0 ? `Leave at the door. Tracking: TRK${100000 + i}` : '',
      created_at,
      updated_at: created_at,
    };
  });
}
