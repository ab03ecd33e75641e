import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CountCache } from '../../src/cache/count-cache.js';
import { importDocument } from '../../src/import/import.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { shopDocument } from '../support/shop.js';

// Single-flight (docs/PERFORMANCE.md, "Caches, and how each is invalidated"): requests that
// miss the same answer or total at once wait for one computation, and a computation is shared
// only under the versions it was keyed by. And invalidation by what changed: an order write
// leaves product answers valid, a product write recomputes them once.

const P = '/v2/projects/shop';

const project = (products: number) => ({
  id: 'shop',
  incarnation: 'life1',
  products_version: products,
  product_lists_version: products,
  categories_version: 1,
  plans_version: 1,
  users_version: 1,
  orders_version: 1,
  data_version: 1,
});

test('concurrent misses of one total count once; other versions count again', async () => {
  const cache = new CountCache(true, 100);
  let counted = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const count = async () => {
    counted++;
    await gate;
    return 42;
  };
  const waiting = Array.from({ length: 16 }, () => cache.get(project(1), 'products', 'all', count));
  // Another products version is another state of the data: never shared.
  const newer = cache.get(project(2), 'products', 'all', count);
  assert.equal(cache.inFlight, 2);
  release();
  assert.deepEqual(await Promise.all(waiting), Array(16).fill(42));
  assert.equal(await newer, 42);
  assert.equal(counted, 2);
  // Kept: asked again, not counted again; a failure is not kept.
  assert.equal(await cache.get(project(1), 'products', 'all', count), 42);
  assert.equal(counted, 2);
  await assert.rejects(cache.get(project(3), 'products', 'all', () => Promise.reject(new Error('boom'))));
  assert.equal(cache.inFlight, 0);
  assert.equal(await cache.get(project(3), 'products', 'all', count), 42);
});

eachBackend('answers are computed once, and survive writes of other types', (backend) => {
  test('16 requests missing one list page read it once; an order update keeps it, a product update recomputes it once', async (t) => {
    const { app, storage, key } = await testApp(t, backend, { rateLimit: false });
    await importDocument(storage.db, shopDocument());
    const k = await key('shop');
    const order = (await call(app, 'GET', `${P}/orders/`, { headers: bearer(k) })).body.data[0];
    let reads = 0;
    const snapshot = storage.reads.snapshot.bind(storage.reads);
    Object.assign(storage.reads, {
      snapshot: (read: Parameters<typeof snapshot>[0]) => {
        reads++;
        return snapshot(read);
      },
    });
    const url = `${P}/products/?perpage=2&page=2&order=price_asc`;
    const burst = () => Promise.all(Array.from({ length: 16 }, () => call(app, 'GET', url)));

    const first = await burst();
    assert.ok(first.every((r) => r.status === 200 && r.text === first[0].text));
    assert.equal(reads, 1, 'one computation for 16 misses');

    const updated = await call(app, 'POST', `${P}/orders/${order.id}`, {
      headers: bearer(k),
      body: { delivery_information: 'left at the door' },
    });
    assert.equal(updated.status, 200);
    const afterOrder = await burst();
    assert.ok(afterOrder.every((r) => r.text === first[0].text && r.headers.etag === first[0].headers.etag));
    assert.equal(reads, 1, 'an order update leaves product answers valid');

    const shown = first[0].body.data[0];
    const renamed = await call(app, 'POST', `${P}/products/${shown.id}`, {
      headers: bearer(k),
      body: { name: 'Renamed once' },
    });
    assert.equal(renamed.status, 200);
    const afterProduct = await burst();
    assert.equal(reads, 2, 'a product update: computed again, once');
    assert.ok(afterProduct.every((r) => r.body.data[0].name === 'Renamed once'));
  });
});

eachBackend('totals survive the product writes that cannot change them', (backend) => {
  test('a stock update keeps the lists totals and changes the product shown; a price update counts again', async (t) => {
    const { app, storage, key } = await testApp(t, backend, { rateLimit: false });
    await importDocument(storage.db, shopDocument());
    const k = await key('shop');
    let counted = 0;
    const get = app.counts.get.bind(app.counts);
    app.counts.get = (project, kind, filter, count) =>
      get(project, kind, filter, () => {
        counted++;
        return count();
      });
    const url = `${P}/products/?perpage=100`;
    const before = (await call(app, 'GET', url)).body;
    const once = counted;
    assert.ok(once > 0);
    const product = before.data[0];
    const stock =
      product.inventory_type === 'advanced'
        ? { stock_quantity: product.stock_quantity + 7 }
        : { in_stock: !product.in_stock };
    assert.equal(
      (await call(app, 'POST', `${P}/products/${product.id}`, { headers: bearer(k), body: stock })).status,
      200,
    );
    const afterStock = (await call(app, 'GET', url)).body;
    assert.equal(counted, once, 'a stock update leaves the totals valid');
    const shown = afterStock.data.find((p: { id: number }) => p.id === product.id);
    assert.deepEqual({ ...shown, updated_at: 0 }, { ...product, ...stock, in_stock: shown.in_stock, updated_at: 0 });
    assert.equal((await call(app, 'GET', `${P}/products/${product.id}`)).body.in_stock, shown.in_stock);

    const price = { price: product.price + 1 };
    assert.equal(
      (await call(app, 'POST', `${P}/products/${product.id}`, { headers: bearer(k), body: price })).status,
      200,
    );
    const afterPrice = (await call(app, 'GET', url)).body;
    assert.ok(counted > once, 'a price update counts again');
    assert.equal(afterPrice.data.find((p: { id: number }) => p.id === product.id).price, price.price);
  });
});
