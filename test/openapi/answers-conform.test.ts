import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { suiteApp, testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { preflight } from '../support/request.js';
import { SHOP, seedShop } from '../support/shop.js';

// One request for each documented operation and each kind of answer it can give. Besides
// the assertions here, testApp checks every one of these answers against the OpenAPI
// document, so together they prove that the document describes what the API really says.

const base = `/v2/projects/${SHOP}`;
const json = { 'content-type': 'application/json' };

eachBackend('answers conform to the OpenAPI document', (backend) => {
  async function setup(t: TestContext) {
    const ctx = await testApp(t, backend);
    await seedShop(ctx.storage);
    const key = await ctx.key(SHOP);
    return { ...ctx, auth: { authorization: `Bearer ${key}` } };
  }
  // The tests that only read share one app.
  const auth: Record<string, string> = {};
  const shared = suiteApp(backend, async (ctx) => {
    await seedShop(ctx.storage);
    auth.authorization = `Bearer ${await ctx.key(SHOP)}`;
  });
  const reader = () => ({ app: shared.app, auth });

  test('plans and categories', async () => {
    const { app } = reader();
    const get = (url: string) => app.inject({ method: 'GET', url: `${base}${url}` });
    assert.deepEqual(
      (await get('/plans/')).json().data.map((p: { id: number }) => p.id),
      [1, 4],
    );
    assert.equal((await get('/plans/3')).json().status, 'deleted');
    assert.equal((await get('/plans/99')).statusCode, 404);
    assert.equal((await get('/plans/?page=1')).statusCode, 400);
    assert.equal((await get('/categories/')).json()[0].subcategories[0].handle, 'apples');
    assert.equal((await get('/categories/?root-category=2')).json()[0].id, 2);
    assert.equal((await get('/categories/?root-category=99')).statusCode, 404);
    assert.equal((await get('/categories/?root-category=x')).statusCode, 400);
    assert.equal((await get('/categories/fruit')).json().id, 1);
    assert.equal((await get('/categories/nope')).statusCode, 404);
    assert.equal((await app.inject({ method: 'GET', url: '/v2/projects/nobody/plans/' })).statusCode, 404);
  });

  test('products, public and hidden', async () => {
    const { app, auth } = reader();
    const get = (url: string, headers = {}) => app.inject({ method: 'GET', url: `${base}${url}`, headers });
    assert.deepEqual(
      (await get('/products/?order=date_asc')).json().data.map((p: { id: number }) => p.id),
      [7, 1, 4, 2, 6, 5],
    );
    assert.equal((await get('/products/?fetch_hidden=true')).statusCode, 401);
    assert.equal((await get('/products/?fetch_hidden=true', { authorization: 'Bearer nope' })).statusCode, 401);
    assert.equal((await get('/products/?fetch_hidden=true', auth)).json().meta.total, 7);
    assert.equal((await get('/products/alpha')).json().id, 1);
    assert.equal((await get('/products/charlie')).statusCode, 404);
    assert.equal((await get('/products/charlie?fetch_hidden=true', auth)).json().show_in_store, false);
    assert.equal((await get('/products/?perpage=101')).statusCode, 400);
  });

  test('product update: success and each documented refusal', async (t) => {
    const { app, auth } = await setup(t);
    const post = (payload: string, headers: Record<string, string> = { ...json, ...auth }, url = '/products/1') =>
      app.inject({ method: 'POST', url: `${base}${url}`, headers, payload });
    const updated = await post(JSON.stringify({ name: 'Linen shirt II', price: 5200 }));
    assert.equal(updated.statusCode, 200);
    assert.equal(updated.json().price, 5200);
    assert.equal((await post('{"name":"x"}', json)).statusCode, 401);
    assert.equal((await post('{}')).statusCode, 400);
    assert.equal((await post('{"name":')).statusCode, 400);
    assert.equal((await post('{"name":"x"}', { ...auth, 'content-type': 'application/xml' })).statusCode, 415);
    assert.equal((await post(JSON.stringify({ name: 'x'.repeat(70_000) }))).statusCode, 413);
    assert.equal((await post('{"name":"x"}', { ...json, ...auth }, '/products/404')).statusCode, 404);
  });

  test('an unknown body field or query parameter is a 400 naming it', async (t) => {
    const { app, auth } = await setup(t);
    const field = await app.inject({
      method: 'POST',
      url: `${base}/products/1`,
      headers: { ...json, ...auth },
      payload: { name: 'Shirt', colour: 'red' },
    });
    assert.equal(field.statusCode, 400);
    assert.deepEqual(field.json().error.details, [{ field: 'colour', message: 'is not a known field' }]);
    const stored = await app.inject({ method: 'GET', url: `${base}/products/1` });
    assert.equal(stored.json().name, 'apple', 'a refused update changes nothing');

    const parameter = await app.inject({ method: 'GET', url: `${base}/products/?colour=red` });
    assert.equal(parameter.statusCode, 400);
    assert.deepEqual(parameter.json().error.details, [{ field: 'colour', message: 'is not a known parameter' }]);
  });

  test('GET answers carry an ETag, and a matching If-None-Match gives an empty 304', async () => {
    const { app } = reader();
    const first = await app.inject({ method: 'GET', url: `${base}/products/1` });
    const etag = String(first.headers.etag);
    assert.ok(etag);
    const again = await app.inject({ method: 'GET', url: `${base}/products/1`, headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.payload, '');
    const head = await app.inject({ method: 'HEAD', url: `${base}/products/1` });
    assert.equal(head.statusCode, 200);
    assert.equal(head.payload, '');
  });

  test('an unsupported method on a known path is 405 with Allow; an unknown path is 404', async () => {
    const { app, auth } = reader();
    for (const [method, url, allow] of [
      ['DELETE', '/products/1', 'GET, HEAD, POST, OPTIONS'],
      ['PUT', '/products/1', 'GET, HEAD, POST, OPTIONS'],
      ['POST', '/products/', 'GET, HEAD, PATCH, OPTIONS'],
      ['POST', '/plans/', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/categories/1', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const response = await app.inject({ method, url: `${base}${url}`, headers: auth });
      assert.equal(response.statusCode, 405, `${method} ${url}`);
      assert.equal(response.headers.allow, allow);
      assert.equal(response.json().error.code, 'method_not_allowed');
    }
    const unknown = await app.inject({ method: 'GET', url: `${base}/widgets/` });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error.code, 'not_found');
  });

  test('CORS preflight still answers 204 with swagger registered', async () => {
    const { app } = reader();
    const response = await preflight(app, `${base}/products/1`, 'https://example.com');
    assert.equal(response.status, 204);
    assert.equal(response.headers['access-control-allow-origin'], '*');
  });
});

test('the OpenAPI document itself is served to any origin and revalidated like other answers', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const response = await app.inject({
    method: 'GET',
    url: '/v2/openapi.json',
    headers: { origin: 'https://example.com' },
  });
  assert.equal(response.headers['access-control-allow-origin'], '*');
  assert.equal(response.headers['cache-control'], 'public, no-cache');
  assert.ok(response.headers.etag);
});
