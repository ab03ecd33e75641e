import assert from 'node:assert/strict';
import { it } from 'node:test';
import { demoDocument } from '../../src/demo/demo-data.js';
import { importDocument } from '../../src/import/import.js';
import type { OrderRecord } from '../../src/resources/orders/record.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { call, fieldOf, ids } from '../support/request.js';
import { sharedShopApp } from '../support/shop-app.js';

eachBackend('orders list', (backend) => {
  const shop = sharedShopApp(backend);

  it('lists orders newest first, ties on created_at broken by id descending, with meta', async () => {
    const { call } = shop;
    const res = await call('GET', '/orders/');
    assert.equal(res.status, 200);
    assert.deepEqual(ids(res), [6, 5, 4, 3, 2, 1]);
    assert.deepEqual(res.body.meta, { page: 1, perpage: 20, total: 6, pages: 1 });
  });

  it('returns the order record with its items in stored order and booleans as JSON booleans', async () => {
    const { call } = shop;
    const res = await call('GET', '/orders/1');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      id: 1,
      customer_email: 'ada@example.com',
      customer_name: 'ada',
      items: [
        { product_id: 7, name: 'Knife', quantity: 2, price: 2500 },
        { product_id: null, name: 'A removed scarf', quantity: 1, price: 1500 },
      ],
      total: 6500,
      currency: 'EUR',
      payment_status: 'paid',
      fulfillment_status: 'shipped',
      is_canceled: false,
      is_archived: false,
      delivery_information: '',
      created_at: 1000,
      updated_at: 1000,
    });
    const listed = (await call('GET', '/orders/')).body.data.find((o: { id: number }) => o.id === 1);
    assert.deepEqual(listed, res.body);
  });

  it('filters by each parameter alone', async () => {
    const { call } = shop;
    const cases: Array<[string, number[]]> = [
      ['payment_status=paid', [6, 3, 1]],
      ['payment_status=pending', [2]],
      ['payment_status=failed', [5]],
      ['payment_status=refunded', [4]],
      ['fulfillment_status=unfulfilled', [6, 2]],
      ['fulfillment_status=shipped', [1]],
      ['fulfillment_status=ready_for_pickup', [5]],
      ['fulfillment_status=delivered', [3]],
      ['fulfillment_status=returned', [4]],
      ['is_canceled=true', [5, 3]],
      ['is_canceled=false', [6, 4, 2, 1]],
      ['is_archived=true', [5, 4]],
      ['is_archived=false', [6, 3, 2, 1]],
      ['customer_email=bob@example.com', [4, 3]],
      ['customer_email=nobody@example.com', []],
      ['created_after=2000', [6, 5, 4]],
      ['created_after=1999', [6, 5, 4, 3, 2]],
      ['created_before=2000', [1]],
      ['created_before=2001', [3, 2, 1]],
      ['created_after=0', [6, 5, 4, 3, 2, 1]],
    ];
    for (const [query, expected] of cases) {
      const res = await call('GET', `/orders/?${query}`);
      assert.equal(res.status, 200, query);
      assert.deepEqual(ids(res), expected, query);
      assert.equal(res.body.meta.total, expected.length, query);
    }
  });

  it('matches customer_email case-insensitively, whatever the case stored or asked', async () => {
    const { call } = shop;
    for (const email of ['ada@example.com', 'ADA@EXAMPLE.COM', 'aDa@ExAmPlE.cOm']) {
      const res = await call('GET', `/orders/?customer_email=${encodeURIComponent(email)}`);
      assert.deepEqual(ids(res), [5, 2, 1], email);
      // the address is shown as it was stored
      assert.deepEqual(
        res.body.data.map((o: { customer_email: string }) => o.customer_email),
        ['ADA@EXAMPLE.COM', 'Ada@Example.com', 'ada@example.com'],
      );
    }
    // a plus sign must be sent encoded; a substring or a pattern is no match
    assert.deepEqual(ids(await call('GET', '/orders/?customer_email=da%40example.com')), []);
    assert.deepEqual(ids(await call('GET', '/orders/?customer_email=%25%40example.com')), []);
  });

  it('treats created_after and created_before as exclusive bounds', async () => {
    const { call } = shop;
    assert.deepEqual(ids(await call('GET', '/orders/?created_after=1000&created_before=3000')), [3, 2]);
    assert.deepEqual(ids(await call('GET', '/orders/?created_after=999&created_before=3001')), [4, 3, 2, 1]);
    assert.deepEqual(ids(await call('GET', '/orders/?created_after=2000&created_before=2000')), []);
    assert.deepEqual(ids(await call('GET', '/orders/?created_after=1999&created_before=2001')), [3, 2]);
    // an empty window is an empty list, not an error
    const res = await call('GET', '/orders/?created_after=5000&created_before=1000');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: [], meta: { page: 1, perpage: 20, total: 0, pages: 0 } });
  });

  it('combines filters with AND', async () => {
    const { call } = shop;
    const cases: Array<[string, number[]]> = [
      ['payment_status=paid&is_canceled=false', [6, 1]],
      ['payment_status=paid&fulfillment_status=unfulfilled', [6]],
      ['customer_email=ADA@example.com&is_archived=true', [5]],
      ['customer_email=ada@example.com&created_after=1000', [5, 2]],
      ['is_canceled=true&is_archived=true', [5]],
      ['is_canceled=false&is_archived=false&created_before=5000', [2, 1]],
      [
        'payment_status=paid&customer_email=bob@example.com&is_canceled=true&created_after=1000&created_before=3000',
        [3],
      ],
      [
        'payment_status=paid&fulfillment_status=delivered&is_canceled=true&is_archived=false&customer_email=BOB@example.com&created_after=1999&created_before=2001',
        [3],
      ],
      ['payment_status=refunded&is_archived=false', []],
    ];
    for (const [query, expected] of cases) {
      const res = await call('GET', `/orders/?${query}`);
      assert.equal(res.status, 200, query);
      assert.deepEqual(ids(res), expected, query);
    }
  });

  it('agrees with a plain reference filter on the demo orders, for every pair of filters', async (t) => {
    const { storage, key, app } = await testApp(t, backend);
    const doc = demoDocument();
    await importDocument(storage.db, doc);
    const headers = { authorization: `Bearer ${await key('demo')}` };
    const orders = doc.orders;
    const middle = [...orders].sort((a, b) => a.created_at! - b.created_at!)[15].created_at!;
    const filters: Array<[string, (o: OrderRecord) => boolean]> = [
      ['payment_status=paid', (o) => o.payment_status === 'paid'],
      ['fulfillment_status=shipped', (o) => o.fulfillment_status === 'shipped'],
      ['is_canceled=false', (o) => !o.is_canceled],
      ['is_archived=true', (o) => o.is_archived === true],
      [
        `customer_email=${orders[3].customer_email.toLowerCase()}`,
        (o) => o.customer_email.toLowerCase() === orders[3].customer_email.toLowerCase(),
      ],
      [`created_after=${middle}`, (o) => o.created_at! > middle],
      [`created_before=${middle}`, (o) => o.created_at! < middle],
    ];
    const newestFirst = (a: OrderRecord, b: OrderRecord) => b.created_at! - a.created_at! || b.id! - a.id!;
    for (let i = 0; i < filters.length; i++) {
      for (let j = i; j < filters.length; j++) {
        const query = i === j ? filters[i][0] : `${filters[i][0]}&${filters[j][0]}`;
        const expected = orders
          .filter((o) => filters[i][1](o) && filters[j][1](o))
          .sort(newestFirst)
          .map((o) => o.id);
        const res = await call(app, 'GET', `/v2/projects/demo/orders/?perpage=100&${query}`, { headers });
        assert.deepEqual(ids(res), expected, query);
      }
    }
    // the demo has orders in every status, canceled and archived ones included
    for (const query of [
      'payment_status=pending',
      'payment_status=failed',
      'payment_status=refunded',
      'fulfillment_status=ready_for_pickup',
      'fulfillment_status=returned',
      'fulfillment_status=delivered',
      'fulfillment_status=unfulfilled',
      'is_canceled=true',
      'is_archived=true',
    ]) {
      const res = await app.inject({ url: `/v2/projects/demo/orders/?${query}`, headers });
      assert.ok(res.json().meta.total > 0, query);
    }
  });

  it('pages with page and perpage, filters applied before paging', async () => {
    const { call } = shop;
    const pages = await Promise.all(
      [1, 2, 3].map((page) => call('GET', `/orders/?perpage=2&page=${page}&is_canceled=false`)),
    );
    assert.deepEqual(pages.map(ids), [[6, 4], [2, 1], []]);
    for (const [i, res] of pages.entries())
      assert.deepEqual(res.body.meta, { page: i + 1, perpage: 2, total: 4, pages: 2 });
    const all = await call('GET', '/orders/?perpage=100');
    assert.equal(all.status, 200);
    assert.equal(all.body.meta.pages, 1);
  });

  it('defaults to 20 a page', async (t) => {
    const { storage, key, app } = await testApp(t, backend);
    await importDocument(storage.db, demoDocument());
    const res = await app.inject({
      url: '/v2/projects/demo/orders/',
      headers: { authorization: `Bearer ${await key('demo')}` },
    });
    assert.equal(res.json().data.length, 20);
    assert.deepEqual(res.json().meta, { page: 1, perpage: 20, total: 30, pages: 2 });
  });

  it('checks every query parameter and names it', async () => {
    const { call } = shop;
    const cases: Array<[string, string, RegExp]> = [
      ['payment_status=shipped', 'payment_status', /must be one of pending, paid, failed, refunded/],
      ['payment_status=PAID', 'payment_status', /must be one of/],
      ['payment_status=', 'payment_status', /must be one of/],
      [
        'fulfillment_status=lost',
        'fulfillment_status',
        /must be one of unfulfilled, shipped, ready_for_pickup, delivered, returned/,
      ],
      ['is_canceled=yes', 'is_canceled', /must be true or false/],
      ['is_canceled=1', 'is_canceled', /must be true or false/],
      ['is_canceled=TRUE', 'is_canceled', /must be true or false/],
      ['is_archived=', 'is_archived', /must be true or false/],
      ['customer_email=ada', 'customer_email', /must be a valid email address/],
      ['customer_email=ada@', 'customer_email', /must be a valid email address/],
      ['customer_email=', 'customer_email', /must be a valid email address/],
      ['customer_email=a%20b@example.com', 'customer_email', /must be a valid email address/],
      ['created_after=yesterday', 'created_after', /must be an integer/],
      ['created_after=-5', 'created_after', /must be an integer/],
      ['created_before=1.5', 'created_before', /must be an integer/],
      ['created_before=1e9', 'created_before', /must be an integer/],
      ['perpage=0', 'perpage', /from 1 to 100/],
      ['perpage=101', 'perpage', /from 1 to 100/],
      ['page=0', 'page', /at least 1|from 1/],
      ['status=paid', 'status', /is not a known parameter/],
      ['payment_status=paid&payment_status=failed', 'payment_status', /must be given once/],
      ['is_canceled=true&is_canceled=true', 'is_canceled', /must be given once/],
    ];
    for (const [query, field, message] of cases) {
      const res = await call('GET', `/orders/?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'invalid_request', query);
      assert.equal(fieldOf(res), field, query);
      assert.match(res.body.error.message, new RegExp(`^${field} `), query);
      assert.match(res.body.error.message, message, query);
    }
    const single = await call('GET', '/orders/1?payment_status=paid');
    assert.equal(single.status, 400);
    assert.equal(fieldOf(single), 'payment_status');
  });

  it('answers 404 for an unknown, malformed or other project’s order id', async () => {
    const { call } = shop;
    for (const path of [
      '/orders/999',
      '/orders/77',
      '/orders/0',
      '/orders/abc',
      '/orders/1.0',
      '/orders/99999999999999999999',
    ]) {
      const res = await call('GET', path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.error.code, 'not_found', path);
    }
    assert.equal((await call('GET', '/orders/1')).body.currency, 'EUR');
  });

  it('is private, has an ETag, answers 304, HEAD, a trailing slash or none, 405 for other methods', async () => {
    const { call } = shop;
    for (const path of ['/orders/', '/orders/?payment_status=paid', '/orders/3']) {
      const res = await call('GET', path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['cache-control'], 'private, no-store', path);
      assert.equal(res.headers['access-control-allow-origin'], '*', path);
      const etag = res.headers.etag as string;
      assert.match(etag, /^"/);
      assert.equal((await call('GET', path, { headers: { 'if-none-match': etag } })).status, 304, path);
      assert.equal((await call('GET', path, { headers: { 'if-none-match': '"stale"' } })).status, 200, path);
      const head = await call('HEAD', path);
      assert.equal(head.status, 200, path);
      assert.equal(head.text, '');
    }
    assert.deepEqual((await call('GET', '/orders')).body, (await call('GET', '/orders/')).body);
    assert.deepEqual((await call('GET', '/orders/3/')).body, (await call('GET', '/orders/3')).body);
    const del = await call('DELETE', '/orders/3');
    assert.equal(del.status, 405);
    assert.equal(del.headers.allow, 'GET, HEAD, POST, OPTIONS');
    const postList = await call('POST', '/orders/', { body: {} });
    assert.equal(postList.status, 405);
    assert.equal(postList.body.error.code, 'method_not_allowed');
  });
});
