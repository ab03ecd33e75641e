import type { Storage } from '../../src/db/connect.js';
import { importDocument } from '../../src/import/import.js';

/**
 * A small catalog whose orderings are easy to reason about: equal names in different case,
 * equal prices and dates (ties), a hidden product, both inventory modes, nested categories,
 * and a second project that reuses the same ids.
 */
export function shopDocument() {
  return {
    project: { id: 'shop', name: 'Shop', currency: 'EUR' },
    categories: [
      { id: 1, handle: 'fruit', name: 'fruit', parent_id: null },
      { id: 2, handle: 'berries', name: 'Berries', parent_id: 1 },
      { id: 3, handle: 'apples', name: 'apples', parent_id: 1 },
      { id: 4, handle: 'tools', name: 'Tools', parent_id: null },
      { id: 5, handle: 'knives', name: 'Knives', parent_id: 4 },
      { id: 6, handle: 'small-knives', name: 'small knives', parent_id: 5 },
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
      {
        id: 1,
        name: 'Basic',
        status: 'active',
        prices: [
          { id: 2, amount: 9000, interval: 'year' },
          { id: 1, amount: 900, interval: 'month' },
        ],
      },
      { id: 2, name: 'Old', status: 'archived', prices: [{ id: 3, amount: 500, interval: 'month' }] },
      { id: 3, name: 'Gone', status: 'deleted' },
      {
        id: 4,
        name: 'Team',
        status: 'active',
        description: 'For teams.',
        prices: [
          { id: 4, amount: 3000, interval: 'month', interval_count: 1, trial_days: 14 },
          { id: 5, amount: 3000, interval: 'month', interval_count: 3 },
        ],
      },
      { id: 5, name: 'Paused', status: 'deactivated' },
    ],
  };
}

export function otherDocument() {
  return {
    project: { id: 'other', name: 'Other', currency: 'JPY' },
    categories: [{ id: 1, handle: 'secret', name: 'Secret', parent_id: null }],
    products: [
      { id: 1, handle: 'alpha', name: 'Other apple', price: 1, category_ids: [1], created_at: 1 },
      { id: 8, handle: 'only-other', name: 'Only in other', price: 1, show_in_store: false, created_at: 1 },
    ],
    plans: [{ id: 1, name: 'Other plan', status: 'active' }],
  };
}

export async function seedShop(storage: Storage): Promise<void> {
  await importDocument(storage.db, shopDocument());
  await importDocument(storage.db, otherDocument());
}
