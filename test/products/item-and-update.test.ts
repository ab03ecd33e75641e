import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { suiteApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { seedShop } from '../support/shop.js';
import { bearer, call } from '../support/request.js';
import { shopAndOtherKeys } from '../support/shop-app.js';

const BASE = '/v2/projects/shop/products';

eachBackend('single product', (backend) => {
  const t = suiteApp(backend, (t) => seedShop(t.storage));
  let key: string;
  before(async () => {
    key = await t.key('shop');
  });

  test('by id and by handle give the same record', async () => {
    const byId = await call(t.app, 'GET', `${BASE}/1`);
    const byHandle = await call(t.app, 'GET', `${BASE}/alpha`);
    assert.equal(byId.status, 200);
    assert.equal(byId.text, byHandle.text);
    assert.equal(byId.body.handle, 'alpha');
    assert.deepEqual(byId.body.category_ids, [1, 3]);
  });

  test('a hidden product is 404 unless fetch_hidden=true with a key', async () => {
    assert.equal((await call(t.app, 'GET', `${BASE}/3`)).status, 404);
    assert.equal((await call(t.app, 'GET', `${BASE}/charlie`, { headers: bearer(key) })).status, 404);
    assert.equal(
      (await call(t.app, 'GET', `${BASE}/charlie?fetch_hidden=false`, { headers: bearer(key) })).status,
      404,
    );
    assert.equal((await call(t.app, 'GET', `${BASE}/charlie?fetch_hidden=true`)).status, 401);
    const r = await call(t.app, 'GET', `${BASE}/charlie?fetch_hidden=true`, { headers: bearer(key) });
    assert.equal(r.status, 200);
    assert.equal(r.body.show_in_store, false);
    assert.equal(r.headers['cache-control'], 'private, no-store');
  });

  test('ids and handles that name nothing are 404', async () => {
    for (const ref of [
      '0',
      '999',
      '99999999999999999999',
      'Alpha',
      'no-such',
      'a--b',
      '-a',
      'only-other',
      '1.0',
      '%20',
    ]) {
      const r = await call(t.app, 'GET', `${BASE}/${ref}`);
      assert.equal(r.status, 404, ref);
      assert.equal(r.body.error.code, 'not_found');
    }
    // another project's hidden product, even with that project's id
    assert.equal((await call(t.app, 'GET', `${BASE}/8?fetch_hidden=true`, { headers: bearer(key) })).status, 404);
  });

  test('query parameters are checked', async () => {
    assert.equal((await call(t.app, 'GET', `${BASE}/1?page=1`)).status, 400);
    assert.equal((await call(t.app, 'GET', `${BASE}/1?fetch_hidden=1`)).status, 400);
  });
});

eachBackend('product update', (backend) => {
  const t = suiteApp(backend, (t) => seedShop(t.storage));
  let key: string;
  let otherKey: string;
  before(async () => {
    [key, otherKey] = await shopAndOtherKeys(t);
  });
  const post = (ref: string | number, body: unknown, headers: Record<string, string> = bearer(key)) =>
    call(t.app, 'POST', `${BASE}/${ref}`, { body, headers });

  test('changes only the fields sent and answers the whole record', async () => {
    const before = (await call(t.app, 'GET', `${BASE}/golf`)).body;
    const r = await post('golf', { name: 'Chef knife', price: 2600 });
    assert.equal(r.status, 200);
    assert.equal(r.body.name, 'Chef knife');
    assert.equal(r.body.price, 2600);
    assert.ok(r.body.updated_at >= Math.floor(Date.now() / 1000) - 5);
    assert.deepEqual({ ...r.body, name: before.name, price: before.price, updated_at: before.updated_at }, before);
    assert.equal(r.headers['cache-control'], 'private, no-store');
    const again = await call(t.app, 'GET', `${BASE}/7`);
    assert.equal(again.body.name, 'Chef knife');
    // the new name is what search and name ordering see
    const found = await call(t.app, 'GET', '/v2/projects/shop/products/?search=chef');
    assert.deepEqual(
      found.body.data.map((p: { id: number }) => p.id),
      [7],
    );
  });

  test('inventory rules are judged against the type after the update', async () => {
    let r = await post(4, { in_stock: true }); // advanced
    assert.equal(r.status, 400);
    assert.equal(r.body.error.details[0].field, 'in_stock');
    assert.match(r.body.error.message, /advanced/);
    r = await post(1, { stock_quantity: 3 }); // simple
    assert.equal(r.status, 400);
    assert.equal(r.body.error.details[0].field, 'stock_quantity');
    r = await post(1, { inventory_type: 'advanced', stock_quantity: 3 });
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.inventory_type, r.body.in_stock, r.body.stock_quantity], ['advanced', true, 3]);
    r = await post(1, { inventory_type: 'simple', in_stock: false });
    assert.deepEqual([r.body.inventory_type, r.body.in_stock, r.body.stock_quantity], ['simple', false, null]);
    // switching back keeps the other mode's stored value
    r = await post(1, { inventory_type: 'advanced' });
    assert.deepEqual([r.body.in_stock, r.body.stock_quantity], [true, 3]);
    r = await post(1, { stock_quantity: 0 });
    assert.deepEqual([r.body.in_stock, r.body.stock_quantity], [false, 0]);
    r = await post(1, { inventory_type: 'simple', stock_quantity: 1 });
    assert.equal(r.status, 400);
  });

  test('field rules', async () => {
    const bad: [unknown, string][] = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(129) }, 'name'],
      [{ name: 5 }, 'name'],
      [{ price: -1 }, 'price'],
      [{ price: 1.5 }, 'price'],
      [{ price: '12' }, 'price'],
      [{ price: 1_000_000_000_001 }, 'price'],
      [{ stock_quantity: 100_001 }, 'stock_quantity'],
      [{ stock_quantity: -1 }, 'stock_quantity'],
      [{ inventory_type: 'complex' }, 'inventory_type'],
      [{ in_stock: 'true' }, 'in_stock'],
      [{ price: null }, 'price'],
      [{ description: 'x' }, 'description'],
      [{}, 'body'],
    ];
    for (const [body, field] of bad) {
      const r = await post(2, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error.details[0].field, field, JSON.stringify(body));
    }
    assert.equal((await post(2, { name: 'x'.repeat(128), price: 1_000_000_000_000 })).status, 200);
    assert.equal((await post(6, { stock_quantity: 100_000 })).status, 200);
    assert.equal((await post(2, { name: '🍌'.repeat(128) })).status, 200); // characters, not bytes
  });

  test('bodies: JSON objects only, 415 and 413', async () => {
    const send = (raw: string, contentType?: string) =>
      call(t.app, 'POST', `${BASE}/2`, {
        raw,
        headers: { ...bearer(key), ...(contentType ? { 'content-type': contentType } : {}) },
      });
    assert.equal((await send('{"price":', 'application/json')).status, 400);
    assert.equal((await send('[1]', 'application/json')).status, 400);
    assert.equal((await send('"x"', 'application/json')).status, 400);
    assert.equal((await send('null', 'application/json')).status, 400);
    assert.equal((await send('', 'application/json')).status, 400);
    assert.equal((await send('{"price":5}', 'text/plain')).status, 415);
    assert.equal((await send('{"price":5}')).status, 415);
    assert.equal((await send('{"price":5}', 'application/json; charset=utf-8')).status, 200);
    const big = JSON.stringify({ name: 'x'.repeat(64 * 1024) });
    const r = await send(big, 'application/json');
    assert.equal(r.status, 413);
    assert.equal(r.body.error.code, 'payload_too_large');
    for (const poisoned of ['{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}']) {
      const r = await send(poisoned, 'application/json');
      assert.equal(r.status, 400);
      assert.match(r.body.error.message, /__proto__/);
    }
    assert.match((await send('{"price":', 'application/json')).body.error.message, /not valid JSON/);
  });

  test('needs a key of this project; 401 comes before any other check', async () => {
    for (const headers of [
      {},
      bearer('nope'),
      bearer(otherKey),
      { authorization: key },
      { authorization: `Basic ${key}` },
    ]) {
      const r = await post(2, { price: -5 }, headers);
      assert.equal(r.status, 401);
      assert.equal(r.headers['www-authenticate'], 'Bearer');
      assert.equal(r.body.error.code, 'unauthorized');
    }
    assert.equal((await post(999, { price: 5 }, {})).status, 401);
  });

  test('reaches hidden products; 404 for nothing', async () => {
    const r = await post('charlie', { price: 250 });
    assert.equal(r.status, 200);
    assert.equal(r.body.price, 250);
    assert.equal((await post(999, { price: 5 })).status, 404);
    assert.equal(
      (await call(t.app, 'POST', `${BASE}/1?dry_run=true`, { body: { price: 5 }, headers: bearer(key) })).status,
      400,
    );
    assert.equal((await post('no-such', { price: 5 })).status, 404);
    // the other project's product with the same id is untouched
    const other = await call(t.app, 'GET', '/v2/projects/other/products/1');
    assert.equal(other.body.price, 1);
  });

  test('two concurrent updates of different fields both survive', async () => {
    for (let i = 0; i < 10; i++) {
      const [a, b] = await Promise.all([post(5, { name: `Name ${i}` }), post(5, { price: 1000 + i })]);
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      const r = await call(t.app, 'GET', `${BASE}/5`);
      assert.equal(r.body.name, `Name ${i}`);
      assert.equal(r.body.price, 1000 + i);
    }
  });
});
