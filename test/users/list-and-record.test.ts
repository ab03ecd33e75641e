import assert from 'node:assert/strict';
import { it } from 'node:test';
import { demoDocument } from '../../src/demo/demo-data.js';
import { ImportError, importDocument } from '../../src/import/import.js';
import { eachBackend } from '../support/each-backend.js';
import { fieldOf, ids } from '../support/request.js';
import { sharedShopApp, shopApp } from '../support/shop-app.js';
import { testApp } from '../support/app.js';

const USER_KEYS = ['created_at', 'email', 'email_verified', 'id', 'last_login_at', 'name', 'subscriptions'];

eachBackend('users', (backend) => {
  const shop = sharedShopApp(backend);

  it('lists users newest first, ties on created_at broken by id descending', async () => {
    const { call } = shop;
    const res = await call('GET', '/users/');
    assert.equal(res.status, 200);
    assert.deepEqual(ids(res), [4, 3, 2, 1, 5]);
    assert.deepEqual(res.body.meta, { page: 1, perpage: 20, total: 5, pages: 1 });
  });

  it('pages with page and perpage; meta counts every user; a page past the end is empty', async () => {
    const { call } = shop;
    const pages = await Promise.all([1, 2, 3, 4].map((page) => call('GET', `/users/?perpage=2&page=${page}`)));
    assert.deepEqual(pages.map(ids), [[4, 3], [2, 1], [5], []]);
    for (const [i, res] of pages.entries()) {
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.meta, { page: i + 1, perpage: 2, total: 5, pages: 3 });
    }
  });

  it('defaults to 20 a page and allows at most 100', async (t) => {
    const { storage, key, app } = await testApp(t, backend);
    await importDocument(storage.db, demoDocument());
    const headers = { authorization: `Bearer ${await key('demo')}` };
    const first = await app.inject({ url: '/v2/projects/demo/users/', headers });
    assert.equal(first.json().data.length, 20);
    assert.deepEqual(first.json().meta, { page: 1, perpage: 20, total: 20, pages: 1 });
    const hundred = await app.inject({ url: '/v2/projects/demo/users/?perpage=100', headers });
    assert.equal(hundred.statusCode, 200);
    const created = hundred.json().data.map((u: { created_at: number }) => u.created_at);
    assert.deepEqual(
      created,
      [...created].sort((a, b) => b - a),
    );
  });

  it('returns the user record with its subscriptions in stored order, and nothing else', async () => {
    const { call } = shop;
    const res = await call('GET', '/users/2');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      id: 2,
      email: 'bob@example.com',
      name: 'Bob',
      email_verified: false,
      created_at: 2000,
      last_login_at: null,
      subscriptions: [
        { plan_id: 2, price_id: 3, status: 'canceled', started_at: 2100, canceled_at: 2200 },
        { plan_id: 1, price_id: 1, status: 'active', started_at: 2300, canceled_at: null },
        { plan_id: 1, price_id: 2, status: 'trialing', started_at: 2400, canceled_at: null },
      ],
    });
    const list = await call('GET', '/users/');
    for (const user of list.body.data) assert.deepEqual(Object.keys(user).sort(), USER_KEYS);
    assert.deepEqual(list.body.data.find((u: { id: number }) => u.id === 1).subscriptions, []);
  });

  it('stores no secret: an import that carries a password is refused whole', async (t) => {
    const { storage } = await testApp(t, backend);
    const doc = {
      project: { id: 'p', name: 'P', currency: 'USD' },
      users: [{ id: 1, email: 'a@example.com', password: 'hunter2' }],
    };
    await assert.rejects(
      importDocument(storage.db, doc),
      (e: unknown) => e instanceof ImportError && /users\[0\]/.test(e.message),
    );
    assert.equal((await storage.db.selectFrom('users').select('id').execute()).length, 0);
  });

  it('answers 404 for an unknown, malformed or other project’s user id, and in a project that lacks it', async (t) => {
    const { call, app, key } = await shopApp(t, backend);
    for (const path of [
      '/users/99',
      '/users/42',
      '/users/0',
      '/users/abc',
      '/users/-1',
      '/users/99999999999999999999',
    ]) {
      const res = await call('GET', path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.error.code, 'not_found');
    }
    // user 42 exists only in project "other"; id 1 exists in both and the shop's own is served
    assert.equal((await call('GET', '/users/1')).body.email, 'ada@example.com');
    await importDocument(app.storage.db, { project: { id: 'empty', name: 'E', currency: 'USD' } });
    const res = await app.inject({
      url: '/v2/projects/empty/users/5',
      headers: { authorization: `Bearer ${await key('empty')}` },
    });
    assert.equal(res.statusCode, 404);
  });

  it('checks its query parameters and names them', async () => {
    const { call } = shop;
    const cases: Array<[string, string]> = [
      ['/users/?perpage=0', 'perpage'],
      ['/users/?perpage=101', 'perpage'],
      ['/users/?perpage=ten', 'perpage'],
      ['/users/?page=0', 'page'],
      ['/users/?page=1.5', 'page'],
      ['/users/?page=+2', 'page'],
      ['/users/?page=1&page=2', 'page'],
      ['/users/?sort=name', 'sort'],
      ['/users/1?verbose=true', 'verbose'],
    ];
    for (const [url, field] of cases) {
      const res = await call('GET', url);
      assert.equal(res.status, 400, url);
      assert.equal(res.body.error.code, 'invalid_request', url);
      assert.equal(fieldOf(res), field, url);
      assert.match(res.body.error.message, new RegExp(`^${field} `), url);
    }
  });

  it('is private, has an ETag, answers 304, HEAD, a trailing slash or none, and 405 for POST', async () => {
    const { call } = shop;
    for (const path of ['/users/', '/users/2']) {
      const res = await call('GET', path);
      assert.equal(res.headers['cache-control'], 'private, no-store');
      assert.equal(res.headers['access-control-allow-origin'], '*');
      const etag = res.headers.etag as string;
      assert.ok(etag);
      const again = await call('GET', path, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      assert.equal(again.text, '');
      const head = await call('HEAD', path);
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      const post = await call('POST', path, { body: {} });
      assert.equal(post.status, 405);
      assert.equal(post.body.error.code, 'method_not_allowed');
      assert.match(post.headers.allow as string, /GET, HEAD/);
    }
    assert.deepEqual((await call('GET', '/users')).body, (await call('GET', '/users/')).body);
    assert.deepEqual((await call('GET', '/users/2/')).body, (await call('GET', '/users/2')).body);
  });

  it('serves the demo users with subscriptions in every status', async (t) => {
    const { storage, key, app } = await testApp(t, backend);
    await importDocument(storage.db, demoDocument());
    const res = await app.inject({
      url: `/v2/projects/demo/users/?perpage=100`,
      headers: { authorization: `Bearer ${await key('demo')}` },
    });
    const statuses = new Set(
      res
        .json()
        .data.flatMap((u: { subscriptions: Array<{ status: string }> }) => u.subscriptions.map((s) => s.status)),
    );
    assert.deepEqual([...statuses].sort(), ['active', 'canceled', 'past_due', 'trialing']);
  });
});
