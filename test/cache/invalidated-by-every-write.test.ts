import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Backend } from '../../src/db/connect.js';
import { importDocument } from '../../src/import/import.js';
import { createKey, revokeKey } from '../../src/keys/repository.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { twoStorages } from '../support/shared-storage.js';
import { shopDocument } from '../support/shop.js';

// Every cache (answers, totals, the search index) is invalidated by every write path: the
// product update (single and batch), the order update and the import, in this process and in another one.

const P = '/v2/projects/shop';

async function snapshot(app: FastifyInstance, key: string) {
  const get = async (url: string, headers: Record<string, string> = {}) =>
    (await call(app, 'GET', `${P}${url}`, { headers })).body;
  return {
    list: await get('/products/'),
    single: await get('/products/1'),
    search: await get('/products/?search=renamed'),
    page2: await get('/products/?perpage=2&page=2'),
    hidden: await get('/products/?fetch_hidden=true', bearer(key)),
    paid: await get('/orders/?payment_status=paid', bearer(key)),
  };
}

/** The shop imported, a key of it, and what every cached read answers before the write. */
async function shopWithSnapshot(t: TestContext, backend: Backend) {
  const { app, storage, key } = await testApp(t, backend);
  await importDocument(storage.db, shopDocument());
  const k = await key('shop');
  const before = await snapshot(app, k);
  // Asked twice: the second answer comes from the caches and must be the same.
  assert.deepEqual(await snapshot(app, k), before);
  return { app, storage, k, before };
}

/** Product 1, renamed "Renamed apple" at 12345, as every cached read shows it. */
function assertAppleRenamed(after: Awaited<ReturnType<typeof snapshot>>) {
  assert.equal(after.single.name, 'Renamed apple');
  assert.equal(after.list.data.find((p: { id: number }) => p.id === 1).price, 12345);
  assert.deepEqual(
    after.search.data.map((p: { id: number }) => p.id),
    [1],
  );
  assert.equal(after.search.meta.total, 1);
  assert.equal(after.hidden.data.find((p: { id: number }) => p.id === 1).name, 'Renamed apple');
}

eachBackend('caches are invalidated by every write path', (backend) => {
  test('a product update is seen at once by lists, the product, search and totals', async (t) => {
    const { app, k, before } = await shopWithSnapshot(t, backend);
    assert.equal(before.search.meta.total, 0);

    const r = await call(app, 'POST', `${P}/products/1`, {
      headers: bearer(k),
      body: { name: 'Renamed apple', price: 12345 },
    });
    assert.equal(r.status, 200);
    const after = await snapshot(app, k);
    assertAppleRenamed(after);
    assert.equal(after.single.price, 12345);
  });

  test('a batch update (PATCH /products/) is seen at once by lists, the products, search and totals', async (t) => {
    const { app, k } = await shopWithSnapshot(t, backend);
    const stockOf2 = async () => (await call(app, 'GET', `${P}/products/2`)).body;
    await stockOf2();
    const r = await call(app, 'PATCH', `${P}/products/`, {
      headers: bearer(k),
      body: {
        products: [
          { id: 1, name: 'Renamed apple', price: 12345 },
          { id: 2, inventory_type: 'advanced', stock_quantity: 4 },
        ],
      },
    });
    assert.equal(r.status, 200);
    const after = await snapshot(app, k);
    assertAppleRenamed(after);
    assert.deepEqual([(await stockOf2()).inventory_type, (await stockOf2()).stock_quantity], ['advanced', 4]);
    assert.equal(after.list.data.find((p: { id: number }) => p.id === 2).stock_quantity, 4);
  });

  test('an import changes cached answers and totals', async (t) => {
    const { app, storage, k, before } = await shopWithSnapshot(t, backend);
    const doc = shopDocument();
    await importDocument(storage.db, {
      project: doc.project,
      products: [{ id: 900, handle: 'renamed-new', name: 'Renamed newcomer', price: 5, created_at: 2_000_000_000 }],
      orders: [{ id: 900, customer_email: 'new@example.com', payment_status: 'paid', items: [] }],
    });
    const after = await snapshot(app, k);
    assert.equal(after.list.meta.total, before.list.meta.total + 1);
    assert.equal(after.list.data[0].id, 900);
    assert.equal(after.hidden.meta.total, before.hidden.meta.total + 1);
    assert.equal(after.search.meta.total, 1);
    assert.equal(after.paid.meta.total, before.paid.meta.total + 1);
    assert.equal(after.page2.meta.total, before.page2.meta.total + 1);
  });

  test('an order update changes cached order totals', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    await importDocument(storage.db, shopDocument());
    const k = await key('shop');
    const list = async () =>
      (await call(app, 'GET', `${P}/orders/?payment_status=refunded`, { headers: bearer(k) })).body;
    const before = await list();
    const some = (await call(app, 'GET', `${P}/orders/?payment_status=paid`, { headers: bearer(k) })).body.data[0];
    assert.ok(some, 'the shop has a paid order');
    assert.equal(
      (await call(app, 'POST', `${P}/orders/${some.id}`, { headers: bearer(k), body: { payment_status: 'refunded' } }))
        .status,
      200,
    );
    const after = await list();
    assert.equal(after.meta.total, before.meta.total + 1);
    assert.ok(after.data.some((o: { id: number }) => o.id === some.id));
  });

  test("another process's writes are seen by the next request", async (t) => {
    const { a, b, close } = await twoStorages(backend);
    t.after(close);
    await importDocument(a.db, shopDocument());
    const appA = (await testApp(t, backend, { storage: a })).app;
    const appB = (await testApp(t, backend, { storage: b })).app;
    const k = (await createKey(a, 'shop', 'test')).key;
    const before = await snapshot(appA, k);
    assert.deepEqual(await snapshot(appA, k), before);

    // B updates a product, then an order, through the API, then imports a product; A sees
    // each write on its next request.
    assert.equal(
      (await call(appB, 'POST', `${P}/products/1`, { headers: bearer(k), body: { name: 'Renamed by B' } })).status,
      200,
    );
    let seen = await snapshot(appA, k);
    assert.equal(seen.single.name, 'Renamed by B');
    assert.equal(seen.search.meta.total, 1);
    assert.equal(seen.hidden.data.find((p: { id: number }) => p.id === 1).name, 'Renamed by B');
    const paid = before.paid.data[0];
    assert.equal(
      (await call(appB, 'POST', `${P}/orders/${paid.id}`, { headers: bearer(k), body: { payment_status: 'failed' } }))
        .status,
      200,
    );
    seen = await snapshot(appA, k);
    assert.equal(seen.paid.meta.total, before.paid.meta.total - 1);

    await importDocument(b.db, {
      project: shopDocument().project,
      products: [{ id: 901, handle: 'from-b', name: 'From B', price: 1, created_at: 2_000_000_000 }],
    });
    seen = await snapshot(appA, k);
    assert.equal(seen.list.meta.total, before.list.meta.total + 1);
    assert.equal(seen.list.data[0].id, 901);
  });

  test('a cached private answer is handed out only after the key check: revoked and foreign keys get 401', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    await importDocument(storage.db, shopDocument());
    const created = await createKey(storage, 'shop', 'soon revoked');
    const foreign = await key('other');
    for (const url of [`${P}/products/?fetch_hidden=true`, `${P}/orders/?payment_status=paid`]) {
      const first = await call(app, 'GET', url, { headers: bearer(created.key) });
      assert.equal(first.status, 200);
      assert.equal(first.headers['cache-control'], 'private, no-store');
      assert.equal((await call(app, 'GET', url, { headers: bearer(created.key) })).text, first.text);
      assert.equal((await call(app, 'GET', url, { headers: bearer(foreign) })).status, 401);
      assert.equal((await call(app, 'GET', url)).status, 401);
    }
    await revokeKey(storage, created.id);
    for (const url of [`${P}/products/?fetch_hidden=true`, `${P}/orders/?payment_status=paid`]) {
      assert.equal((await call(app, 'GET', url, { headers: bearer(created.key) })).status, 401);
    }
  });

  test('a stock update recomputes the answers showing that product and keeps every other', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    await importDocument(storage.db, shopDocument());
    const k = await key('shop');
    const urls = ['/products/1', '/products/?ids=1,2', '/products/2', '/products/?ids=2,3', '/products/?perpage=2'];
    const before = new Map<string, { etag: unknown; body: { data?: { id: number }[] } }>();
    for (const url of urls) {
      const r = await call(app, 'GET', `${P}${url}`);
      before.set(url, { etag: r.headers.etag, body: r.body });
    }
    // Every products answer that is computed again assembles its products from the record cache.
    const computed: string[] = [];
    const assemble = app.records.assemble.bind(app.records);
    app.records.assemble = (...args) => {
      computed.push(String(args[1].map((r) => r.id)));
      return assemble(...args);
    };
    const update = await call(app, 'POST', `${P}/products/1`, {
      headers: bearer(k),
      body: { inventory_type: 'advanced', stock_quantity: 7 },
    });
    assert.equal(update.status, 200);
    const shows1 = (url: string) => url === '/products/1' || before.get(url)!.body.data?.some((p) => p.id === 1);
    for (const url of urls) {
      const r = await call(app, 'GET', `${P}${url}`);
      assert.equal(r.status, 200);
      if (shows1(url)) {
        const product = url === '/products/1' ? r.body : r.body.data.find((p: { id: number }) => p.id === 1);
        assert.equal(product.stock_quantity, 7, url);
        assert.notEqual(r.headers.etag, before.get(url)!.etag, url);
      } else {
        assert.deepEqual(r.body, before.get(url)!.body, url);
        assert.equal(r.headers.etag, before.get(url)!.etag, url);
      }
    }
    assert.equal(computed.length, urls.filter(shows1).length, `computed again: ${computed.join(' | ')}`);
  });

  test('a cached answer is the same bytes with the same ETag, and revalidates to 304', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await importDocument(storage.db, shopDocument());
    const first = await call(app, 'GET', `${P}/products/?order=price_asc`);
    const second = await call(app, 'GET', `${P}/products/?order=price_asc`);
    assert.equal(second.text, first.text);
    assert.equal(second.headers.etag, first.headers.etag);
    assert.equal(second.headers['content-type'], first.headers['content-type']);
    const revalidated = await call(app, 'GET', `${P}/products/?order=price_asc`, {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.text, '');
  });
});
