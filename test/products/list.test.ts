import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { suiteApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { importDocument } from '../../src/import/import.js';
import { seedShop, shopDocument } from '../support/shop.js';
import { bearer, call } from '../support/request.js';
import { shopAndOtherKeys } from '../support/shop-app.js';

const LIST = '/v2/projects/shop/products/';
const ids = (body: { data: { id: number }[] }) => body.data.map((p) => p.id);

eachBackend('products list', (backend) => {
  const t = suiteApp(backend, (t) => seedShop(t.storage));
  let key: string;
  let otherKey: string;
  before(async () => {
    [key, otherKey] = await shopAndOtherKeys(t);
  });
  const get = (query: string, headers: Record<string, string> = {}) =>
    call(t.app, 'GET', `${LIST}${query}`, { headers });

  test('default order is newest first, ties by id descending, hidden products left out', async () => {
    const r = await get('');
    assert.equal(r.status, 200);
    assert.deepEqual(ids(r.body), [5, 6, 2, 4, 1, 7]);
    assert.deepEqual(r.body.meta, { page: 1, perpage: 20, total: 6, pages: 1 });
  });

  const orders: Record<string, number[]> = {
    name_asc: [1, 4, 2, 6, 7, 5],
    name_desc: [5, 7, 6, 2, 4, 1],
    price_asc: [2, 4, 6, 1, 5, 7],
    price_desc: [7, 5, 1, 6, 4, 2],
    date_asc: [7, 1, 4, 2, 6, 5],
    date_desc: [5, 6, 2, 4, 1, 7],
    custom_asc: [1, 5, 6, 7, 4, 2],
    custom_desc: [2, 4, 7, 6, 5, 1],
    'price_asc,name_asc': [4, 2, 6, 1, 5, 7],
    'price_asc,name_desc': [6, 2, 4, 1, 5, 7],
    'name_asc,price_desc': [1, 4, 6, 2, 7, 5],
    'price_desc,date_asc,name_asc': [7, 5, 1, 4, 2, 6],
  };
  for (const [order, expected] of Object.entries(orders)) {
    test(`order=${order}`, async () => {
      const r = await get(`?order=${order}`);
      assert.equal(r.status, 200);
      assert.deepEqual(ids(r.body), expected);
    });
  }

  test('bad order clauses are 400 naming order', async () => {
    for (const bad of ['price', 'price_up', 'name_asc,', ',name_asc', '', 'NAME_ASC', 'name_asc;price_asc']) {
      const r = await get(`?order=${encodeURIComponent(bad)}`);
      assert.equal(r.status, 400, bad);
      assert.equal(r.body.error.details[0].field, 'order');
    }
  });

  test('paging: meta, last page, a page past the end', async () => {
    let r = await get('?perpage=2');
    assert.deepEqual(ids(r.body), [5, 6]);
    assert.deepEqual(r.body.meta, { page: 1, perpage: 2, total: 6, pages: 3 });
    r = await get('?perpage=2&page=3');
    assert.deepEqual(ids(r.body), [1, 7]);
    r = await get('?perpage=2&page=4');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, []);
    assert.deepEqual(r.body.meta, { page: 4, perpage: 2, total: 6, pages: 3 });
    r = await get('?perpage=100');
    assert.equal(r.body.data.length, 6);
  });

  test('page and perpage are validated', async () => {
    const cases: Record<string, string> = {
      'page=0': 'page',
      'page=-1': 'page',
      'page=1.5': 'page',
      'page=+1': 'page',
      'page=%201': 'page',
      'page=1e2': 'page',
      'page=abc': 'page',
      'page=': 'page',
      'perpage=0': 'perpage',
      'perpage=101': 'perpage',
      'perpage=0x10': 'perpage',
      'page=1&page=2': 'page',
      'page=99999999999999999999': 'page',
    };
    for (const [query, field] of Object.entries(cases)) {
      const r = await get(`?${query}`);
      assert.equal(r.status, 400, query);
      assert.equal(r.body.error.code, 'invalid_request');
      assert.equal(r.body.error.details[0].field, field, query);
      assert.match(r.body.error.message, new RegExp(`^${field} `));
    }
    const r = await get('?perpage=0');
    assert.equal(r.body.error.message, 'perpage must be an integer from 1 to 100');
  });

  test('unknown parameters are 400 naming them', async () => {
    const r = await get('?colour=red');
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.error.details, [{ field: 'colour', message: 'is not a known parameter' }]);
  });

  test('category: products directly in it; unknown id gives an empty list', async () => {
    assert.deepEqual(ids((await get('?category=1')).body), [6, 2, 1]);
    assert.deepEqual(ids((await get('?category=3')).body), [1]);
    assert.deepEqual(ids((await get('?category=2')).body), []); // only a hidden product
    assert.deepEqual(ids((await get('?category=2&fetch_hidden=true', bearer(key))).body), [3]);
    const none = await get('?category=999');
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.meta.total, 0);
    for (const bad of ['0', 'x', '-1', '1,2']) assert.equal((await get(`?category=${bad}`)).status, 400, bad);
  });

  test('search: case-insensitive substring of name, description or SKU', async () => {
    const cases: Record<string, number[]> = {
      APL: [4, 1], // SKUs APL-1 and apl-2
      apple: [4, 1],
      yellow: [2], // description
      'ban-2': [6], // SKU
      '100%': [5],
      '0%c': [], // % is literal, not a wildcard
      a_b: [5], // _ is literal: cocoa_beans
      'a%b': [],
      '\\': [6],
      é: [5],
      ÉCL: [5],
      hidden: [], // only the hidden product's description
      zzz: [],
    };
    for (const [term, expected] of Object.entries(cases)) {
      const r = await get(`?search=${encodeURIComponent(term)}`);
      assert.equal(r.status, 200, term);
      assert.deepEqual(ids(r.body), expected, term);
      assert.equal(r.body.meta.total, expected.length, term);
    }
    assert.deepEqual(ids((await get('?search=hidden&fetch_hidden=true', bearer(key))).body), [3]);
    assert.equal((await get('?search=')).body.meta.total, 6); // empty: no filter
    assert.equal((await get(`?search=${'a'.repeat(257)}`)).status, 400);
  });

  test('ids: only those products, in the order sorting, repeats counted once', async () => {
    assert.deepEqual(ids((await get('?ids=1,3,5')).body), [5, 1]);
    assert.deepEqual(ids((await get('?ids=5,1,5&order=price_asc')).body), [1, 5]);
    assert.deepEqual(ids((await get('?ids=3&fetch_hidden=true', bearer(key))).body), [3]);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1).join(',');
    assert.equal((await get(`?ids=${hundred}`)).body.meta.total, 6);
    const repeated = Array.from({ length: 150 }, () => 1).join(',');
    assert.deepEqual(ids((await get(`?ids=${repeated}`)).body), [1]);
    for (const bad of ['', '0', 'a', '1,,2', '1,', '-1', '1.5', `${hundred},101`]) {
      const r = await get(`?ids=${bad}`);
      assert.equal(r.status, 400, bad);
      assert.equal(r.body.error.details[0].field, 'ids');
    }
  });

  test('filters combine with AND', async () => {
    assert.deepEqual(ids((await get('?category=1&search=banana&order=price_asc')).body), [2, 6]);
    assert.deepEqual(ids((await get('?category=1&ids=1,2,4')).body), [2, 1]);
    assert.deepEqual(ids((await get('?category=1&search=apple&ids=4')).body), []);
  });

  test('fetch_hidden=true needs a key of this project', async () => {
    assert.equal((await get('?fetch_hidden=true')).status, 401);
    assert.equal((await get('?fetch_hidden=true', bearer(otherKey))).status, 401);
    const r = await get('?fetch_hidden=true', bearer(key));
    assert.equal(r.status, 200);
    assert.deepEqual(ids(r.body), [5, 6, 2, 4, 3, 1, 7]);
    assert.equal(r.headers['cache-control'], 'private, no-store');
    assert.equal((await get('?fetch_hidden=false')).body.meta.total, 6);
    for (const bad of ['yes', 'TRUE', '1', '']) assert.equal((await get(`?fetch_hidden=${bad}`)).status, 400, bad);
    // a bad key with a bad parameter is still 401: the key is checked first
    assert.equal((await get('?fetch_hidden=true&perpage=0', bearer('nope'))).status, 401);
  });

  test('public lists ignore the Authorization header', async () => {
    const r = await get('', bearer('not-a-key'));
    assert.equal(r.status, 200);
    assert.equal(r.headers['cache-control'], 'public, no-cache');
  });

  test('records are shaped as CONTRACT 3 says', async () => {
    const r = await get('?ids=4,6,7,5&order=date_asc');
    const [p7, p4, p6, p5] = r.body.data;
    assert.deepEqual(Object.keys(p5), [
      'id',
      'handle',
      'name',
      'description',
      'sku',
      'price',
      'currency',
      'inventory_type',
      'in_stock',
      'stock_quantity',
      'show_in_store',
      'custom_sort',
      'category_ids',
      'images',
      'created_at',
      'updated_at',
    ]);
    // The shop gives product 5 only some fields: those come back as given, every other one has
    // its default, but for two that are derived: the project's currency, and created_at as
    // updated_at.
    const given = shopDocument().products.find((p) => p.id === 5);
    const defaults = { inventory_type: 'simple', in_stock: true, stock_quantity: null, show_in_store: true };
    const derived = { currency: 'EUR', updated_at: 4000 };
    assert.deepEqual(p5, { ...given, ...defaults, custom_sort: 0, category_ids: [], ...derived });
    assert.equal(p4.in_stock, false); // advanced with 0 in stock
    assert.equal(p4.stock_quantity, 0);
    assert.equal(p6.in_stock, true);
    assert.equal(p6.stock_quantity, 7);
    assert.equal(p7.in_stock, false); // simple, flag off
    assert.equal(p7.stock_quantity, null);
  });

  test('projects are separate: same ids, other records', async () => {
    const r = await call(t.app, 'GET', '/v2/projects/other/products/');
    assert.deepEqual(
      r.body.data.map((p: { name: string }) => p.name),
      ['Otherapple'],
    );
    assert.equal(r.body.data[0].currency, 'JPY');
    assert.equal(
      (await call(t.app, 'GET', '/v2/projects/other/products/?fetch_hidden=true', { headers: bearer(key) })).status,
      401,
    );
    assert.equal((await call(t.app, 'GET', '/v2/projects/nope/products/')).status, 404);
  });
});

eachBackend('products list, ids= sorted past U+FFFF', (backend) => {
  const names = ['x\u{FFFD}', 'x\u{1F600}', 'x\u{E000}', 'xa', 'x\u{10FFFD}', 'X\u{FF21}'];
  const t = suiteApp(backend, async (t) => {
    await importDocument(t.storage.db, {
      project: { id: 'glyphs', name: 'Glyphs', currency: 'EUR' },
      products: names.map((name, i) => ({ id: i + 1, handle: `g${i + 1}`, name, price: 100 })),
    });
  });

  // ids= sorts its rows in JavaScript; names compare by code point (UTF-8 bytes), as the
  // byte-collated name_key does in SQL, which JavaScript's `<` on UTF-16 units does not.
  test('ids= in name order is the order of the list', async () => {
    for (const order of ['name_asc', 'name_desc', 'price_asc,name_desc']) {
      const list = await call(t.app, 'GET', `/v2/projects/glyphs/products/?order=${order}`);
      const picked = await call(t.app, 'GET', `/v2/projects/glyphs/products/?order=${order}&ids=1,2,3,4,5,6`);
      assert.equal(picked.status, 200);
      assert.deepEqual(ids(picked.body), ids(list.body), order);
    }
    const names = (await call(t.app, 'GET', '/v2/projects/glyphs/products/?order=name_asc&ids=1,2,3,4,5,6')).body.data;
    assert.deepEqual(
      names.map((p: { id: number }) => p.id),
      [4, 3, 6, 1, 2, 5],
    );
  });
});
