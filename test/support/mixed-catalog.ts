import { category, plan } from './records.js';

// A catalogue built to make two storage backends disagree if they can: names that differ
// only in case or accents, non-ASCII letters whose lower case is tricky (ß, İ, Σ, ǅ),
// exact ties on every sort key, search-pattern characters (% _ \) in names, descriptions
// and SKUs, hidden products, nested categories. Ids and times are fixed, so every import
// of it gives the same records on any backend.

export const MIXED_PROJECT = 'mixed';
const T = 1_780_000_000;

const NAMES = [
  'apple',
  'Apple',
  'APPLE pie',
  'Äpfel',
  'äpfel',
  'Éclair',
  'eclair',
  'Zebra',
  'zebra',
  'ΟΔΟΣ',
  'ωmega',
  'Ωmega',
  'ß street',
  'SS street',
  'İstanbul',
  'istanbul',
  'ǅemal',
  '日本茶',
  'emoji 🍎',
  '100% cotton',
  '100 percent',
  'under_score',
  'underXscore',
  'back\\slash',
  'backslash',
  'a_b c',
  'Mixed CaSe',
  'mixed case',
  'B',
  'b',
  'Zz',
  'zZ',
  '€ euro',
  'ÿ last',
  'z',
  'Ærø',
  'aero',
  'ﬁsh ligature',
  'KELVIN K',
  'naïve',
];

export function mixedCatalog(): Record<string, unknown> {
  const dated = { created_at: T, updated_at: T };
  const categories = [
    category(1, 'fruit', 'fruit', null, dated),
    category(2, 'fruit-upper', 'Fruit', null, dated),
    category(3, 'apfel', 'Äpfel', 1, dated),
    category(4, 'zest', 'zest', 1, dated),
    category(5, 'eclairs', 'Éclairs', 3, dated),
    category(6, 'bare', 'bare', null, dated),
  ];
  const products = NAMES.map((name, i) => {
    const id = i + 1;
    return {
      id,
      handle: `p-${id}`,
      name,
      description: i % 5 === 0 ? `50% off_now \\ back ${name}` : i % 7 === 0 ? 'Plain words, Ünïcödé' : '',
      sku: i % 3 === 0 ? null : i % 3 === 1 ? `SKU_${id}%` : `sk\\${id}`,
      price: [500, 1000, 1000, 250, 99_999, 1_000_000_000_000][i % 6],
      inventory_type: i % 4 === 0 ? 'advanced' : 'simple',
      in_stock: i % 5 !== 1,
      stock_quantity: i % 4 === 0 ? (i * 7) % 11 : 0,
      show_in_store: i % 9 !== 4,
      custom_sort: [0, 0, 5, -3, 5, 100, 0, 1][i % 8],
      category_ids: [[1], [1, 2], [3], [3, 5], [], [4], [2], [6, 1]][i % 8],
      images: i % 6 === 0 ? [{ url: `https://img.example/${id}.jpg`, alt: name }] : [],
      // Three products a second, and the same second twice apart: created_at ties too.
      created_at: T + Math.floor(i / 3) * 60,
      updated_at: T + 3600 + i,
    };
  });
  const plans = [
    plan(
      1,
      'Basic',
      'active',
      [
        { id: 10, amount: 900, interval: 'month' },
        { id: 11, amount: 9000, interval: 'year' },
      ],
      dated,
    ),
    plan(2, 'Pro', 'active', [{ id: 12, amount: 900, interval: 'month', trial_days: 14 }], dated),
    plan(3, 'Old', 'archived', [{ id: 13, amount: 100, interval: 'one_time' }], dated),
  ];
  const users = Array.from({ length: 25 }, (_, i) => ({
    id: i + 1,
    email: `${['Ada', 'bob', 'CELINE', 'dora'][i % 4]}.${i}@Example.com`,
    name: ['Ada', 'bob', 'Céline', 'Ωmega'][i % 4],
    email_verified: i % 2 === 0,
    created_at: T + Math.floor(i / 2) * 10,
    last_login_at: i % 3 === 0 ? null : T + 500 + i,
    subscriptions: i % 5 === 0 ? [{ plan_id: 1, price_id: 10, status: 'active', started_at: T }] : [],
  }));
  const pay = ['pending', 'paid', 'failed', 'refunded'];
  const ful = ['unfulfilled', 'shipped', 'ready_for_pickup', 'delivered', 'returned'];
  const orders = Array.from({ length: 30 }, (_, i) => ({
    id: 1000 + i,
    customer_email: i % 3 === 0 ? 'Ada@Example.com' : i % 3 === 1 ? 'ada@example.COM' : `c${i}@example.com`,
    customer_name: 'Ada',
    items: [{ product_id: (i % NAMES.length) + 1, name: NAMES[i % NAMES.length], quantity: 1 + (i % 3), price: 500 }],
    payment_status: pay[i % 4],
    fulfillment_status: ful[i % 5],
    is_canceled: i % 6 === 0,
    is_archived: i % 7 === 0,
    delivery_information: i % 4 === 0 ? 'Leave at door, 50% chance_of rain \\' : '',
    created_at: T + Math.floor(i / 3) * 100,
    updated_at: T + Math.floor(i / 3) * 100,
  }));
  return {
    project: { id: MIXED_PROJECT, name: 'Mixed shop', currency: 'EUR' },
    categories,
    products,
    plans,
    users,
    orders,
  };
}

export const MIXED_PRODUCT_COUNT = NAMES.length;
