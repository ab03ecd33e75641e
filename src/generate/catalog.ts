import type { CategoryRecord } from '../resources/categories/record.js';
import type { OrderRecord } from '../resources/orders/record.js';
import type { PlanRecord } from '../resources/plans/record.js';
import type { ProductRecord } from '../resources/products/record.js';
import type { UserRecord } from '../resources/users/record.js';
import { Random } from './random.js';
import { ADJECTIVES, CATEGORY_TREE, FIRST_NAMES, LAST_NAMES, MATERIALS, NOUNS, WORDS } from './words.js';

// Realistic records in the import format (docs/API.md, "Import format"), produced one at a
// time from a seed so that a million of them never sit in memory. The generator writes them
// through each resource's rows.ts; the bench writes the same records as NDJSON to measure
// `storefront import`.

const DAY = 86_400;
/** Generated records are dated over the three years before this moment. */
const EPOCH_END = 1_763_700_000;
const SPAN = 3 * 365 * DAY;

export type WithId<T> = T & { id: number };

export interface Ids {
  category: number;
  product: number;
  plan: number;
  price: number;
  user: number;
  order: number;
}

export function categories(firstId: number): WithId<CategoryRecord>[] {
  const out: WithId<CategoryRecord>[] = [];
  const add = (name: string, parent: number | null) => {
    const id = firstId + out.length;
    out.push({ id, handle: `${slug(name)}-${id}`, name, parent_id: parent, created_at: EPOCH_END - SPAN });
    return id;
  };
  for (const [root, children] of Object.entries(CATEGORY_TREE)) {
    const r = add(root, null);
    for (const [child, leaves] of Object.entries(children)) {
      const c = add(child, r);
      for (const leaf of leaves) add(leaf, c);
    }
  }
  return out;
}

/** Leaf categories (those without children): where products are filed. */
export function leaves(cats: readonly { id: number; parent_id?: number | null }[]): number[] {
  const parents = new Set(cats.map((c) => c.parent_id));
  return cats.filter((c) => !parents.has(c.id)).map((c) => c.id);
}

export function product(
  id: number,
  index: number,
  total: number,
  leafIds: number[],
): WithId<ProductRecord> & { category_ids: number[] } {
  const r = new Random(id * 2654435761);
  const name = `${cap(r.pick(ADJECTIVES))} ${r.pick(MATERIALS)} ${r.pick(NOUNS)}`;
  const words: string[] = [];
  for (let i = r.int(10, 18); i > 0; i--)
    words.push(r.chance(0.25) ? r.pick(ADJECTIVES) : r.chance(0.2) ? r.pick(MATERIALS) : r.pick(WORDS));
  const advanced = r.chance(0.4);
  // Older ids are older products, a few hours apart with some jitter: like a real catalog.
  const created_at = EPOCH_END - SPAN + Math.floor((SPAN * index) / Math.max(total, 1)) + r.int(0, 3600);
  const category = leafIds.length ? [r.pick(leafIds)] : [];
  if (leafIds.length > 1 && r.chance(0.2)) {
    const second = r.pick(leafIds);
    if (second !== category[0]) category.push(second);
  }
  return {
    id,
    handle: `${slug(name)}-${id}`,
    name,
    description: `${cap(words.join(' '))}.`,
    sku: r.chance(0.9) ? `${r.pick(MATERIALS).slice(0, 3).toUpperCase()}-${id.toString(36).toUpperCase()}` : null,
    price: r.chance(0.7) ? r.int(5, 200) * 100 - 1 : r.int(100, 100_000),
    inventory_type: advanced ? 'advanced' : 'simple',
    in_stock: advanced ? true : r.chance(0.9),
    stock_quantity: advanced ? (r.chance(0.1) ? 0 : r.int(1, 500)) : 0,
    show_in_store: !r.chance(0.05),
    custom_sort: r.chance(0.1) ? r.int(1, 100) : 0,
    category_ids: category.sort((a, b) => a - b),
    images: [{ url: `https://cdn.example.com/p/${id}.jpg`, alt: name }],
    created_at,
    updated_at: created_at + r.int(0, 30) * DAY,
  };
}

/** Three plans, the last one deactivated; each priced monthly and yearly. */
export function plans(ids: Ids): WithId<PlanRecord>[] {
  const made = EPOCH_END - SPAN;
  return [
    ['Starter', 900, 'active'],
    ['Pro', 2900, 'active'],
    ['Legacy', 1900, 'deactivated'],
  ].map(([name, amount, status], i) => ({
    id: ids.plan + i,
    name: name as string,
    description: `${name} plan`,
    status: status as 'active' | 'deactivated',
    prices: [
      {
        id: ids.price + 2 * i,
        amount: amount as number,
        currency: 'USD',
        interval: 'month' as const,
        interval_count: 1,
        trial_days: 14,
      },
      {
        id: ids.price + 2 * i + 1,
        amount: (amount as number) * 10,
        currency: 'USD',
        interval: 'year' as const,
        interval_count: 1,
        trial_days: 0,
      },
    ],
    created_at: made,
    updated_at: made,
  }));
}

/** A plan users may subscribe to, with its prices' ids. */
export interface PricedPlan {
  id: number;
  prices: number[];
}

export function user(id: number, plans: readonly PricedPlan[]): WithId<UserRecord> {
  const r = new Random(id * 40503 + 7);
  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
  const created_at = EPOCH_END - r.int(0, SPAN);
  const plan = plans.length ? r.pick(plans) : undefined;
  const subscribed = r.chance(0.6) ? plan : undefined;
  const status = r.pick(['trialing', 'active', 'active', 'active', 'past_due', 'canceled'] as const);
  return {
    id,
    email: `${first}.${last}.${id}@example.com`,
    name: `${cap(first)} ${cap(last)}`,
    email_verified: r.chance(0.8),
    created_at,
    last_login_at: r.chance(0.7) ? created_at + r.int(0, 90) * DAY : null,
    subscriptions: subscribed
      ? [
          {
            plan_id: subscribed.id,
            price_id: r.pick(subscribed.prices),
            status,
            started_at: created_at,
            canceled_at: status === 'canceled' ? created_at + 30 * DAY : null,
          },
        ]
      : [],
  };
}

const PAYMENT = ['pending', 'paid', 'paid', 'paid', 'failed', 'refunded'] as const;
const FULFILLMENT = ['unfulfilled', 'shipped', 'ready_for_pickup', 'delivered', 'returned'] as const;

/** An order of 1 to 3 products among `productIds` (the first and last product id), in any status. */
export function order(id: number, productRange: [number, number]): WithId<OrderRecord> {
  const r = new Random(id * 69069 + 3);
  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
  const items = [];
  const [lo, hi] = productRange;
  for (let i = r.int(1, 3); i > 0 && hi >= lo; i--) {
    items.push({
      product_id: r.int(lo, hi),
      name: `${cap(r.pick(MATERIALS))} ${r.pick(NOUNS)}`,
      quantity: r.int(1, 4),
      price: r.int(5, 200) * 100 - 1,
    });
  }
  const created_at = EPOCH_END - r.int(0, SPAN);
  return {
    id,
    customer_email: `${first}.${last}@example.com`,
    customer_name: `${cap(first)} ${cap(last)}`,
    items,
    payment_status: r.pick(PAYMENT),
    fulfillment_status: r.pick(FULFILLMENT),
    is_canceled: r.chance(0.05),
    is_archived: r.chance(0.1),
    delivery_information: r.chance(0.5) ? `${r.int(1, 999)} ${cap(r.pick(WORDS))} street` : '',
    created_at,
    updated_at: created_at + r.int(0, 10) * DAY,
  };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
