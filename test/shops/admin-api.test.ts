import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAdminKey } from '../../src/keys/admin.js';
import { ADMIN_PREFIX, generateKey, hashKey } from '../../src/keys/token.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { SHOP, seedShop } from '../support/shop.js';

// The admin API (CONTRACT 19): projects created, listed and deleted over HTTP with an admin key.

const P = '/v2/projects';
const acme = { id: 'acme', name: 'Acme', currency: 'EUR' };

eachBackend('admin API', (backend) => {
  test('401 without an admin key, 403 with a project key, then create, list and delete', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    await seedShop(storage);
    const admin = bearer((await createAdminKey(storage.db, 'ops')).key);
    const projectKey = bearer(await key(SHOP));

    assert.equal((await call(app, 'GET', `${P}/`)).status, 401);
    assert.equal((await call(app, 'GET', `${P}/`, { headers: bearer(generateKey(ADMIN_PREFIX)) })).status, 401);
    const forbidden = await call(app, 'POST', `${P}/`, { headers: projectKey, body: acme });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error.code, 'forbidden');
    assert.equal(
      (await call(app, 'DELETE', `${P}/${SHOP}`, { headers: { ...projectKey, 'confirm-delete': SHOP } })).status,
      403,
    );

    const made = await call(app, 'POST', `${P}/`, { headers: admin, body: acme });
    assert.equal(made.status, 201);
    assert.deepEqual({ ...made.body.project, created_at: 0 }, { ...acme, created_at: 0 });
    assert.match(made.body.key.key, /^sfk_/);
    assert.equal(made.body.key.scopes.length, 8);
    assert.equal((await call(app, 'POST', `${P}/`, { headers: admin, body: acme })).status, 409);
    assert.equal((await call(app, 'POST', `${P}/`, { headers: admin, body: { ...acme, id: 'Bad!' } })).status, 400);
    // The first key works at once, with every scope.
    const acmeKey = bearer(made.body.key.key);
    assert.equal((await call(app, 'GET', `${P}/acme/orders/`, { headers: acmeKey })).status, 200);
    assert.equal((await call(app, 'GET', `${P}/acme/keys/`, { headers: acmeKey })).body.data.length, 1);

    const list = await call(app, 'GET', `${P}/?perpage=2`, { headers: admin });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.meta, { page: 1, perpage: 2, total: 3, pages: 2 });
    assert.deepEqual(
      list.body.data.map((p: { id: string }) => p.id),
      ['acme', 'other'],
    );
    const shop = (await call(app, 'GET', `${P}/?page=2&perpage=2`, { headers: admin })).body.data[0];
    assert.equal(shop.id, SHOP);
    const products = (await call(app, 'GET', `${P}/${SHOP}/products/?fetch_hidden=true`, { headers: projectKey })).body
      .meta.total;
    assert.equal(shop.counts.products, products);
    assert.ok(shop.counts.orders > 0 && shop.counts.users > 0 && shop.counts.categories > 0);
    assert.equal((await call(app, 'GET', `${P}/?perpage=0`, { headers: admin })).status, 400);

    assert.equal((await call(app, 'DELETE', `${P}/acme`, { headers: admin })).status, 400);
    assert.equal(
      (await call(app, 'DELETE', `${P}/acme`, { headers: { ...admin, 'confirm-delete': SHOP } })).status,
      412,
    );
    assert.equal(
      (await call(app, 'DELETE', `${P}/nope`, { headers: { ...admin, 'confirm-delete': 'nope' } })).status,
      404,
    );
    const gone = await call(app, 'DELETE', `${P}/acme`, { headers: { ...admin, 'confirm-delete': 'acme' } });
    assert.equal(gone.status, 204);
    assert.equal(gone.text, '');
    // Its keys stop at once; the project is 404 to the public; the others are untouched.
    assert.equal((await call(app, 'GET', `${P}/acme/orders/`, { headers: acmeKey })).status, 401);
    assert.equal((await call(app, 'GET', `${P}/acme/products/`)).status, 404);
    assert.equal((await call(app, 'GET', `${P}/${SHOP}/orders/`, { headers: projectKey })).status, 200);
    assert.equal((await call(app, 'GET', `${P}/`, { headers: admin })).body.meta.total, 2);
    // Everything of it is gone, in every table.
    for (const table of ['api_keys', 'changes', 'products'] as const) {
      const rows = await storage.db.selectFrom(table).select('project_id').where('project_id', '=', 'acme').execute();
      assert.equal(rows.length, 0, table);
    }
  });

  test('STOREFRONT_ADMIN_KEYS: a listed hash is an admin key, stored nowhere', async (t) => {
    const key = generateKey(ADMIN_PREFIX);
    const { app } = await testApp(t, backend, { adminKeyHashes: [hashKey(key)] });
    assert.equal((await call(app, 'POST', `${P}/`, { headers: bearer(key), body: acme })).status, 201);
    assert.equal((await call(app, 'GET', `${P}/`, { headers: bearer(generateKey(ADMIN_PREFIX)) })).status, 401);
  });

  test('a revoked admin key is 401 at once', async (t) => {
    const { app, storage } = await testApp(t, backend);
    const made = await createAdminKey(storage.db, 'ops');
    assert.equal((await call(app, 'GET', `${P}/`, { headers: bearer(made.key) })).status, 200);
    await storage.db.updateTable('admin_keys').set({ revoked_at: 1 }).where('id', '=', made.info.id).execute();
    assert.equal((await call(app, 'GET', `${P}/`, { headers: bearer(made.key) })).status, 401);
  });

  test('CORS: the preflight of a project path allows DELETE with Confirm-Delete', async (t) => {
    const { app } = await testApp(t, backend);
    const pre = await call(app, 'OPTIONS', `${P}/acme`, {
      headers: { origin: 'https://ops.example', 'access-control-request-method': 'DELETE' },
    });
    assert.equal(pre.status, 204);
    assert.match(String(pre.headers['access-control-allow-methods']), /DELETE/);
    assert.match(String(pre.headers['access-control-allow-headers']), /Confirm-Delete/);
  });
});
