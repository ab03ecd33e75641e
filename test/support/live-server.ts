import type { TestContext } from 'node:test';
import type { Backend } from '../../src/db/connect.js';
import { loadDemo } from '../../src/demo/load-demo.js';
import { importDocument } from '../../src/import/import.js';
import { testApp } from './app.js';

// The client talks HTTP through fetch, so its tests need a listening server (app.inject is
// not reachable by fetch or by a browser). Each test gets its own app, storage and port.

export interface LiveServer {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** an API key of the seeded project */
  key: string;
}

/** A listening app holding SHOP (below) or the demo project "demo" that `npm start` serves. */
export async function liveServer(
  t: TestContext,
  backend: Backend,
  seed: 'shop' | 'demo' = 'shop',
): Promise<LiveServer> {
  const { app, storage, key } = await testApp(t, backend);
  const projectKey =
    seed === 'demo' ? (await loadDemo(storage.db)).key : (await importDocument(storage.db, SHOP), await key('shop'));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test server has no TCP address');
  return { baseUrl: `http://127.0.0.1:${address.port}`, key: projectKey };
}

/** A small shop whose every record the tests can name. */
export const SHOP = {
  project: { id: 'shop', name: 'Test shop', currency: 'EUR' },
  categories: [
    { id: 1, handle: 'clothing', name: 'Clothing', parent_id: null },
    { id: 2, handle: 'shirts', name: 'Shirts', parent_id: 1 },
    { id: 3, handle: 'home', name: 'Home', parent_id: null },
  ],
  products: [
    {
      id: 1,
      handle: 'linen-shirt',
      name: 'Linen shirt',
      description: 'Light and cool.',
      sku: 'LS-01',
      price: 4900,
      inventory_type: 'advanced',
      stock_quantity: 7,
      category_ids: [1, 2],
      created_at: 1763700001,
    },
    { id: 2, handle: 'wool-sweater', name: 'Wool sweater', price: 8900, category_ids: [1], created_at: 1763700002 },
    { id: 3, handle: 'oak-table', name: 'Oak table', price: 29900, category_ids: [3], created_at: 1763700003 },
    { id: 4, handle: 'clay-mug', name: 'Clay mug', price: 1200, category_ids: [3], created_at: 1763700004 },
    { id: 5, handle: 'secret-item', name: 'Secret item', price: 100, show_in_store: false, created_at: 1763700005 },
  ],
  plans: [
    { id: 1, name: 'Basic', status: 'active', prices: [{ id: 10, amount: 500, currency: 'EUR', interval: 'month' }] },
    { id: 2, name: 'Old', status: 'archived', prices: [] },
  ],
};
