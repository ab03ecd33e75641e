import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError, type Product, type ProductBatchItem, createClient } from '../../src/client/index.js';
import { eachBackend } from '../support/each-backend.js';
import { liveServer, sharedLiveServer } from '../support/live-server.js';

// The typed helpers are api() with typed paths, queries and answers; all() walks every page.

/** The client, and the URLs it fetched. */
function counting(baseUrl: string, projectId: string, apiKey?: string) {
  const urls: string[] = [];
  const client = createClient({
    baseUrl,
    projectId,
    apiKey,
    fetch: (url, init) => (urls.push(url instanceof Request ? url.url : String(url)), fetch(url, init)),
  });
  return { client, urls };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

eachBackend('client helpers', (backend) => {
  const shop = sharedLiveServer(backend);
  const demo = sharedLiveServer(backend, 'demo');

  test('products: list with a query, get by handle or id, update', async (t) => {
    const { baseUrl, key } = await liveServer(t, backend);
    const { products } = createClient({ baseUrl, projectId: 'shop', apiKey: key });
    const page = await products.list({ order: 'price_asc,name_asc', perpage: 3 });
    assert.deepEqual(
      page.data.map((p) => p.handle),
      ['delta', 'bravo', 'foxtrot'],
    );
    assert.deepEqual(page.meta, { page: 1, perpage: 3, total: 6, pages: 2 });
    assert.deepEqual(await products.get(1), await products.get('alpha'));
    const banana = await products.update('bravo', { inventory_type: 'advanced', stock_quantity: 3 });
    assert.deepEqual([banana.inventory_type, banana.stock_quantity, banana.in_stock], ['advanced', 3, true]);
  });

  test('products.updateMany: typed items, all or nothing with an ApiError naming each item, idempotencyKey', async (t) => {
    const { baseUrl, key } = await liveServer(t, backend);
    const { api, products } = createClient({ baseUrl, projectId: 'shop', apiKey: key });
    const { etag } = await api('/products/foxtrot', { raw: true });
    const items: ProductBatchItem[] = [
      { handle: 'bravo', price: 4321 },
      { id: 6, stock_quantity: 2, if_match: etag! },
    ];
    const { data } = await products.updateMany(items, { idempotencyKey: 'bulk-1' });
    assert.deepEqual(
      data.map((p) => [p.id, p.price, p.stock_quantity]),
      [
        [2, 4321, null],
        [6, 100, 2],
      ],
    );
    // A retry with the key is the first answer, even with if_match now stale.
    assert.deepEqual((await products.updateMany(items, { idempotencyKey: 'bulk-1' })).data, data);
    const refused = await products
      .updateMany([
        { id: 1, price: 1 },
        { id: 6, stock_quantity: 3, if_match: etag! },
      ])
      .then(
        () => assert.fail('a stale if_match must refuse the batch'),
        (error: unknown) => error,
      );
    assert.ok(refused instanceof ApiError);
    assert.deepEqual([refused.status, refused.details.map((d) => d.field)], [409, ['products[1].if_match']]);
    assert.equal((await products.get(1)).price, 300, 'nothing written');
  });

  test('products.all() walks every page in order, one request a page, between two reads of the feed', async () => {
    const { baseUrl } = shop;
    const { client, urls } = counting(baseUrl, 'shop');
    const all: Product[] = await collect(client.products.all({ order: 'price_asc', perpage: 4 }));
    assert.deepEqual(
      all.map((p) => p.price),
      [100, 100, 100, 300, 500, 2500],
    );
    const paths = urls.map((u) => new URL(u)).map((u) => u.pathname.replace('/v2/projects/shop', '') + u.search);
    assert.equal(paths.length, 4, paths.join(' '));
    // The feed's position first, then the pages, then what changed during them (nothing).
    assert.match(paths[0], /^\/changes\/\?limit=1000&types=plan$/);
    assert.deepEqual(paths.slice(1, 3), [
      '/products/?order=price_asc&perpage=4&page=1',
      '/products/?order=price_asc&perpage=4&page=2',
    ]);
    assert.match(paths[3], /^\/changes\/\?since=[\w-]+&limit=1000&types=product$/);
  });

  test('plans and categories: list and get', async () => {
    const { baseUrl } = shop;
    const { plans, categories } = createClient({ baseUrl, projectId: 'shop' });
    assert.deepEqual(
      (await plans.list()).data.map((p) => [p.name, p.prices[0]?.amount]),
      [
        ['Basic', 900],
        ['Team', 3000],
      ],
    );
    assert.equal((await plans.get(2)).status, 'archived');
    const tree = await categories.list();
    assert.deepEqual(
      tree.map((c) => [c.handle, c.subcategories.map((s) => s.handle)]),
      [
        ['fruit', ['apples', 'berries']],
        ['tools', ['knives']],
      ],
    );
    assert.deepEqual(await categories.list({ 'root-category': 4 }), [tree[1]]);
    assert.equal((await categories.get('berries')).parent_id, 1);
  });

  test('the demo project: every product, page by page', async () => {
    const { baseUrl } = demo;
    const { client, urls } = counting(baseUrl, 'demo');
    const first = await client.products.list();
    const products = await collect(client.products.all());
    assert.ok(first.meta.total > 20, 'the demo has more than one default page of products');
    assert.equal(products.length, first.meta.total);
    assert.equal(new Set(products.map((p) => p.id)).size, products.length, 'no product twice');
    assert.equal(urls.filter((u) => u.includes('/products/')).length, 1 + Math.ceil(first.meta.total / 100));
  });

  test('the demo project: users list, get and all()', async () => {
    const { baseUrl, key } = demo;
    const { users } = createClient({ baseUrl, projectId: 'demo', apiKey: key });
    const all = await collect(users.all({ perpage: 7 }));
    assert.equal(all.length, (await users.list()).meta.total);
    assert.equal(new Set(all.map((u) => u.id)).size, all.length, 'no user twice');
    assert.deepEqual(await users.get(all[0].id), all[0]);
  });

  test('the demo project: orders list, get, all() and update', async (t) => {
    const { baseUrl, key } = await liveServer(t, backend, 'demo');
    const { orders } = createClient({ baseUrl, projectId: 'demo', apiKey: key });
    const all = await collect(orders.all({ perpage: 7 }));
    assert.equal(all.length, (await orders.list({ perpage: 1 })).meta.total);
    assert.ok(
      all.every((o, i) => i === 0 || all[i - 1].created_at >= o.created_at),
      'newest first, across pages',
    );
    const paid = await orders.list({ payment_status: 'paid', perpage: 100 });
    assert.ok(paid.data.every((o) => o.payment_status === 'paid'));
    const shipped = await orders.update(all[0].id, { fulfillment_status: 'shipped', is_archived: 'true' });
    assert.deepEqual([shipped.fulfillment_status, shipped.is_archived], ['shipped', true]);
    assert.deepEqual(await orders.get(all[0].id), shipped);
  });
});

test('all() stops on an empty page even when meta promises more', async () => {
  let calls = 0;
  const fetch = async (url: string | URL | Request) =>
    (url instanceof Request ? url.url : url.toString()).includes('/changes/')
      ? Response.json({ data: [], next: 'n', has_more: false })
      : (calls++, Response.json({ data: [], meta: { page: 1, perpage: 100, total: 5, pages: 2 } }));
  assert.deepEqual(await collect(createClient({ baseUrl: 'http://x', projectId: 'p', fetch }).users.all()), []);
  assert.equal(calls, 1);
});

eachBackend('client operator helpers', (backend) => {
  test('keys: current tells the scopes; create, list, roll, revoke; plans of every status', async (t) => {
    const { baseUrl, key } = await liveServer(t, backend);
    const admin = createClient({ baseUrl, projectId: 'shop', apiKey: key });
    const me = await admin.keys.current();
    assert.ok(me.scopes.includes('keys:manage') && !('key' in me));
    const made = await admin.keys.create({ label: 'read only', scopes: ['orders:read'], expires_in_days: 30 });
    assert.match(made.key, /^sfk_/);
    const reader = createClient({ baseUrl, projectId: 'shop', apiKey: made.key });
    const current = await reader.keys.current();
    assert.deepEqual([current.id, current.label, current.scopes], [made.id, 'read only', ['orders:read']]);
    assert.equal(current.expires_at, made.expires_at);
    // Any key, whatever its scopes, reads the plans of every status.
    const every = await reader.plans.list({ fetch_inactive: true });
    const active = await createClient({ baseUrl, projectId: 'shop' }).plans.list();
    assert.ok(every.data.length > active.data.length);
    assert.ok(every.data.some((p) => p.status === 'deleted'));
    const rolled = await admin.keys.roll(made.id, { overlap_seconds: 0 });
    assert.deepEqual(rolled.scopes, ['orders:read']);
    assert.ok((await admin.keys.list()).data.some((k) => k.id === rolled.id));
    const revoked = await admin.keys.revoke(rolled.id);
    assert.equal(revoked.id, rolled.id);
    await assert.rejects(reader.keys.current(), { status: 401 });
  });

  test('webhooks: list, create with its secret once, deliveries, enable, roll the secret', async (t) => {
    const { baseUrl, key } = await liveServer(t, backend, 'shop', { webhooks: { allowPrivate: true } });
    const { webhooks } = createClient({ baseUrl, projectId: 'shop', apiKey: key });
    assert.deepEqual((await webhooks.list()).data, []);
    // An address nothing listens on: the delivery's attempts fail, which is all this needs.
    const made = await webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['order.updated'] });
    assert.match(made.secret, /^whsec_/);
    assert.deepEqual(
      (await webhooks.list()).data.map((e) => e.id),
      [made.id],
    );
    assert.deepEqual((await webhooks.deliveries(made.id)).data, []);
    assert.equal((await webhooks.enable(made.id)).disabled_at, null);
    const rolled = await webhooks.rollSecret(made.id, { overlap_seconds: 0 });
    assert.notEqual(rolled.secret, made.secret);
    await assert.rejects(webhooks.replay('msg_nothing'), { status: 404 });
    assert.deepEqual(await webhooks.delete(made.id), { id: made.id, deleted: true });
    assert.deepEqual((await webhooks.list()).data, []);
  });
});
