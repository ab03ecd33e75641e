// The catalog the convergence runs start from, and the records the writers write: a few
// categories (5 to 8 under 1, the ones deleted and made again), products linked to them,
// plans, users and orders whose items name products 1 to 10 (never deleted, so that an
// order always passes the import's reference check).

export const PROJECT = 'conv';
export const PRODUCTS = 120;

export const category = (id: number) => ({
  id,
  handle: `cat-${id}`,
  name: `Category ${id}`,
  parent_id: id > 4 ? 1 : null,
});

export const product = (id: number, price: number, visible: boolean, categoryId: number) => ({
  id,
  handle: `p-${id}`,
  name: `Product ${id}`,
  price,
  show_in_store: visible,
  category_ids: [1 + (id % 4), categoryId],
});

export const plan = (id: number, status: string) => ({
  id,
  name: `Plan ${id}`,
  status,
  prices: [{ id: id * 10, amount: 100 * id, interval: 'month' }],
});

export const user = (id: number, name: string) => ({ id, email: `u${id}@example.com`, name });

export const order = (id: number, quantity: number) => ({
  id,
  customer_email: `u${id % 20}@example.com`,
  items: [{ product_id: 1 + (id % 10), name: 'Thing', quantity, price: 100 }],
});

export function seedDocument() {
  return {
    project: { id: PROJECT, name: 'Convergence', currency: 'USD' },
    categories: [1, 2, 3, 4, 5, 6, 7, 8].map(category),
    products: Array.from({ length: PRODUCTS }, (_, i) => product(i + 1, 100 + i, i % 7 !== 0, 5 + (i % 4))),
    plans: [plan(1, 'active'), plan(2, 'active'), plan(3, 'deactivated')],
    users: Array.from({ length: 20 }, (_, i) => user(i + 1, `User ${i + 1}`)),
    orders: Array.from({ length: 30 }, (_, i) => order(i + 1, 1)),
  };
}
