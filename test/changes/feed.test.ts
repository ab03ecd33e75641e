import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeCursor } from '../../src/changes/cursor.js';
import { purgeOldDeletions } from '../../src/changes/retention.js';
import { importDocument } from '../../src/import/import.js';
import { SCOPES } from '../../src/keys/scopes.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { shopApp, sharedShopApp } from '../support/shop-app.js';
import { SHOP } from '../support/shop.js';
import { type Get, type Mirror, follow, fromLists, plain } from './mirror.js';

// GET /v2/projects/<project_id>/changes/ (docs/API.md, "The change feed"): what a reader
// gets from nothing, pages, every parameter's validation, scopes, hidden products, caching
// and retention. Deletions and their entries: deletions.test.ts; many writers at once:
// convergence.test.ts.

const FEED = `/v2/projects/${SHOP}/changes/`;
const ALL = ['product', 'category', 'plan', 'user', 'order'];
const PUBLIC = ['product', 'category', 'plan'];

eachBackend('change feed', (backend) => {
  const shop = sharedShopApp(backend);
  const publicGet: Get = (path) => call(shop.app, 'GET', `/v2/projects/${SHOP}${path}`);
  const keyedGet: Get = (path) => shop.call('GET', path);

  test('from nothing, the public feed gives exactly what the public lists give', async () => {
    const mirror: Mirror = new Map();
    await follow(publicGet, mirror, undefined);
    assert.deepEqual(plain(mirror, PUBLIC), plain(await fromLists(publicGet, PUBLIC), PUBLIC));
    // The hidden product and the plans that are not active are there, as deletes.
    const first = (await publicGet('/changes/?limit=1000')).body;
    const entry = (type: string, id: number) => first.data.find((e: any) => e.type === type && e.id === id);
    assert.deepEqual(entry('product', 3).action, 'delete');
    assert.equal(entry('product', 3).record, null);
    for (const id of [2, 3, 5]) assert.equal(entry('plan', id).action, 'delete', `plan ${id}`);
    assert.equal(entry('plan', 1).action, 'upsert');
    assert.deepEqual(Object.keys(entry('category', 2).record), ['id', 'handle', 'name', 'parent_id']);
    assert.equal(typeof entry('product', 1).changed_at, 'number');
    assert.equal(first.has_more, false);
  });

  test('with a key: users, orders and hidden products too, equal to their lists', async () => {
    const mirror: Mirror = new Map();
    await follow(keyedGet, mirror, undefined, `&types=${ALL.join(',')}`);
    const lists = await fromLists(keyedGet, ALL);
    assert.deepEqual(plain(mirror, ALL), plain(lists, ALL));
    const hidden = (await shop.call('GET', '/changes/?fetch_hidden=true&types=product&limit=1000')).body.data;
    assert.equal(hidden.find((e: any) => e.id === 3).action, 'upsert');
    assert.equal(hidden.find((e: any) => e.id === 3).record.show_in_store, false);
  });

  test('pages of any size give the same entries, each record once per answer, in commit order', async () => {
    const whole = (await publicGet('/changes/?limit=1000')).body.data;
    for (const limit of [1, 2, 7]) {
      const entries: any[] = [];
      let since: string | undefined;
      for (;;) {
        const page = (await publicGet(`/changes/?limit=${limit}${since ? `&since=${since}` : ''}`)).body;
        assert.ok(page.data.length <= limit);
        entries.push(...page.data);
        since = page.next;
        if (!page.has_more) break;
      }
      assert.deepEqual(entries, whole, `limit ${limit}`);
    }
    assert.equal(new Set(whole.map((e: any) => `${e.type}:${e.id}`)).size, whole.length);
  });

  test('every parameter is checked: a 400 in the envelope naming it', async () => {
    const cases: [string, string][] = [
      ['since=%21%21', 'since'],
      [`since=${'a'.repeat(121)}`, 'since'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=', 'limit'],
      ['types=', 'types'],
      ['types=product,widget', 'types'],
      ['types=product,', 'types'],
      ['types=Product', 'types'],
      ['fetch_hidden=yes', 'fetch_hidden'],
      ['limit=5&limit=6', 'limit'],
      ['page=2', 'page'],
    ];
    for (const [query, field] of cases) {
      const res = await publicGet(`/changes/?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'invalid_request', query);
      assert.equal(res.body.error.details[0].field, field, query);
    }
  });

  test('a since of the right form that this feed did not make is 410 gone: start again without it', async () => {
    for (const since of [
      'abc',
      Buffer.from('12.product').toString('base64url'),
      Buffer.from('-1').toString('base64url'),
    ]) {
      const res = await publicGet(`/changes/?since=${since}`);
      assert.equal(res.status, 410, since);
      assert.equal(res.body.error.code, 'gone', since);
    }
  });

  test('users and orders need a key (401) holding users:read / orders:read (403); hidden products products:read_hidden', async () => {
    for (const query of ['types=user', 'types=product,order', 'fetch_hidden=true']) {
      const res = await call(shop.app, 'GET', `${FEED}?${query}`);
      assert.equal(res.status, 401, query);
      assert.equal(res.headers['www-authenticate'], 'Bearer');
    }
    // 401 comes before the 400 of a bad parameter.
    assert.equal((await publicGet('/changes/?types=user&limit=0')).status, 401);
    for (const [query, scope] of [
      ['types=user', 'users:read'],
      ['types=category,order', 'orders:read'],
      ['fetch_hidden=true', 'products:read_hidden'],
    ] as const) {
      const key = await shop.key(SHOP, { scopes: SCOPES.filter((s) => s !== scope) });
      const res = await call(shop.app, 'GET', `${FEED}?${query}`, { headers: bearer(key) });
      assert.equal(res.status, 403, query);
      assert.deepEqual(res.body.error.details, [{ field: 'scope', message: `requires ${scope}` }]);
      const only = await shop.key(SHOP, { scopes: [scope] });
      assert.equal((await call(shop.app, 'GET', `${FEED}?${query}`, { headers: bearer(only) })).status, 200, query);
    }
    // Another project's key is a 401; the public types ignore a key altogether.
    const other = await shop.key('other');
    assert.equal((await call(shop.app, 'GET', `${FEED}?types=user`, { headers: bearer(other) })).status, 401);
    assert.equal((await call(shop.app, 'GET', FEED, { headers: bearer(other) })).status, 200);
  });

  test('caching: public, no-cache with an ETag and 304; private, no-store with a key', async () => {
    const first = await call(shop.app, 'GET', FEED);
    assert.equal(first.headers['cache-control'], 'public, no-cache');
    assert.ok(first.headers.etag);
    const again = await call(shop.app, 'GET', FEED, { headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    const keyed = await shop.call('GET', '/changes/?types=user');
    assert.equal(keyed.headers['cache-control'], 'private, no-store');
    const head = await call(shop.app, 'HEAD', FEED);
    assert.equal(head.status, 200);
  });

  test('an unknown project is 404', async () => {
    assert.equal((await call(shop.app, 'GET', '/v2/projects/nope/changes/')).status, 404);
  });
});

eachBackend('change feed after writes', (backend) => {
  test('next: a poll gives only what changed after the answer; an unchanged poll is a 304', async (t) => {
    const { app, call: keyed, post } = await shopApp(t, backend);
    let mirror: Mirror = new Map();
    const get: Get = (path) => call(app, 'GET', `/v2/projects/${SHOP}${path}`);
    const { next } = await follow(get, mirror, undefined);
    const idle = await call(app, 'GET', `${FEED}?since=${next}`);
    assert.deepEqual(idle.body.data, []);
    assert.equal(idle.body.next, next);
    assert.equal(
      (await call(app, 'GET', `${FEED}?since=${next}`, { headers: { 'if-none-match': String(idle.headers.etag) } }))
        .status,
      304,
    );

    assert.equal((await post('/products/2', { price: 12345 })).status, 200);
    assert.equal((await post('/orders/1', { payment_status: 'refunded' })).status, 200);
    const poll = (await call(app, 'GET', `${FEED}?since=${next}`)).body;
    assert.deepEqual(
      poll.data.map((e: any) => [e.type, e.id, e.action, e.record?.price]),
      [['product', 2, 'upsert', 12345]],
    );
    const orders = (await keyed('GET', `/changes/?since=${next}&types=order`)).body;
    assert.deepEqual(
      orders.data.map((e: any) => [e.type, e.id, e.record.payment_status]),
      [['order', 1, 'refunded']],
    );
    mirror = new Map();
    await follow(get, mirror, undefined);
    assert.deepEqual(plain(mirror, PUBLIC), plain(await fromLists(get, PUBLIC), PUBLIC));
  });

  test('a product that becomes hidden is a delete for a public reader and an upsert with fetch_hidden; visible again, an upsert', async (t) => {
    const { app, storage, call: keyed } = await shopApp(t, backend);
    const { next } = (await call(app, 'GET', `${FEED}?limit=1000`)).body;
    const project = { id: SHOP, name: 'Shop', currency: 'EUR' };
    await importDocument(storage.db, {
      project,
      products: [{ id: 1, handle: 'alpha', name: 'apple', price: 300, show_in_store: false }],
    });
    const hidden = (await call(app, 'GET', `${FEED}?since=${next}`)).body.data;
    assert.deepEqual(hidden, [
      { type: 'product', id: 1, action: 'delete', record: null, changed_at: hidden[0].changed_at },
    ]);
    const keyedAnswer = (await keyed('GET', `/changes/?since=${next}&fetch_hidden=true`)).body.data;
    assert.equal(keyedAnswer[0].action, 'upsert');
    assert.equal(keyedAnswer[0].record.show_in_store, false);
    await importDocument(storage.db, { project, products: [{ id: 1, handle: 'alpha', name: 'apple', price: 300 }] });
    const shown = (await call(app, 'GET', `${FEED}?since=${next}`)).body.data;
    assert.equal(shown[0].action, 'upsert');
    assert.equal(shown[0].record.show_in_store, true);
  });

  test('a change of the project currency is an upsert of every product', async (t) => {
    const { app, storage } = await shopApp(t, backend);
    const { next } = (await call(app, 'GET', `${FEED}?limit=1000`)).body;
    await importDocument(storage.db, { project: { id: SHOP, name: 'Shop', currency: 'USD' } });
    const data = (await call(app, 'GET', `${FEED}?since=${next}&types=product`)).body.data;
    assert.deepEqual(
      data.filter((e: any) => e.action === 'upsert').map((e: any) => e.record.currency),
      Array(6).fill('USD'),
    );
  });

  test('deletions older than the retention leave the feed: a cursor before them is 410 gone, without one all is well', async (t) => {
    const { app, storage } = await shopApp(t, backend);
    const { next: old } = (await call(app, 'GET', `${FEED}?limit=1000`)).body;
    const project = { id: SHOP, name: 'Shop', currency: 'EUR' };
    await importDocument(storage.db, { project, products: [{ id: 2, deleted: true }] });
    const { next: recent } = (await call(app, 'GET', `${FEED}?since=${old}`)).body;
    // The deletion is 31 days old: the next import (retention 30 days) purges it.
    await storage.db
      .updateTable('changes')
      .set({ changed_at: Math.floor(Date.now() / 1000) - 31 * 86_400 })
      .where('action', '=', 'delete')
      .execute();
    await importDocument(storage.db, { project }, { retentionDays: 30 });
    const gone = await call(app, 'GET', `${FEED}?since=${old}`);
    assert.equal(gone.status, 410);
    assert.equal(gone.body.error.code, 'gone');
    assert.match(gone.body.error.message, /without since/);
    assert.equal((await call(app, 'GET', `${FEED}?since=${recent}`)).status, 200);
    const fresh = (await call(app, 'GET', `${FEED}?limit=1000`)).body.data;
    assert.ok(!fresh.some((e: any) => e.type === 'product' && e.id === 2));
    // Nothing older is left to purge.
    assert.equal(await purgeOldDeletions(storage.db, SHOP, 30), 0);
  });

  test('a cursor from another history (a future seq) is 410 gone', async (t) => {
    const { app } = await shopApp(t, backend);
    const res = await call(app, 'GET', `${FEED}?since=${encodeCursor(1_000_000)}`);
    assert.equal(res.status, 410);
  });
});
