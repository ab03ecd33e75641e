import type { Storage } from '../../src/db/connect.js';
import { upsertProject } from '../../src/resources/projects/repository.js';

// A tiny catalogue, written straight to the tables, so that these suites do not depend on
// the importer: one project with a nested category, a visible and a hidden product, and an
// active and a deleted plan.

export const PROJECT = 'shop';
const T = 1763700000;

export async function seed({ db }: Storage): Promise<void> {
  await upsertProject(db, { id: PROJECT, name: 'Shop', currency: 'USD' });
  const category = { project_id: PROJECT, created_at: T, updated_at: T };
  await db
    .insertInto('categories')
    .values([
      { ...category, id: 1, handle: 'clothing', name: 'Clothing', name_key: 'clothing', parent_id: null },
      { ...category, id: 2, handle: 'shirts', name: 'Shirts', name_key: 'shirts', parent_id: 1 },
    ])
    .execute();
  const product = {
    project_id: PROJECT,
    description: 'Light and cool.',
    sku: null,
    price: 4900,
    inventory_type: 'simple' as const,
    in_stock: 1,
    stock_quantity: 0,
    custom_sort: 0,
    images: '[]',
    created_at: T,
    updated_at: T,
  };
  await db
    .insertInto('products')
    .values([
      {
        ...product,
        id: 12,
        handle: 'linen-shirt',
        name: 'Linen shirt',
        name_key: 'linen shirt',
        search_text: 'linen shirt',
        show_in_store: 1,
      },
      {
        ...product,
        id: 13,
        handle: 'secret-shirt',
        name: 'Secret shirt',
        name_key: 'secret shirt',
        search_text: 'secret shirt',
        show_in_store: 0,
      },
    ])
    .execute();
  await db.insertInto('product_categories').values({ project_id: PROJECT, product_id: 12, category_id: 2 }).execute();
  const plan = { project_id: PROJECT, description: '', created_at: T, updated_at: T };
  await db
    .insertInto('plans')
    .values([
      { ...plan, id: 1, name: 'Pro', status: 'active' },
      { ...plan, id: 2, name: 'Old', status: 'deleted' },
    ])
    .execute();
  await db
    .insertInto('plan_prices')
    .values({
      project_id: PROJECT,
      id: 10,
      plan_id: 1,
      amount: 1500,
      currency: 'USD',
      interval: 'month',
      interval_count: 1,
      trial_days: 0,
    })
    .execute();
}
