import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { ApiError, NetworkError, createClient } from '../../src/client/index.js';
import { eachBackend } from '../support/each-backend.js';
import { liveServer, sharedLiveServer } from '../support/live-server.js';

// api(path) and the typed helpers, against a real listening server: what the API answers is
// what the caller gets, and failures are told apart (ApiError vs NetworkError).

eachBackend('client api(path)', (backend) => {
  const shop = sharedLiveServer(backend);

  test('resolves to the parsed JSON of a list and of one product by handle', async () => {
    const { baseUrl } = shop;
    const { api } = createClient({ baseUrl, projectId: 'shop' });
    const list = await api<{ data: { handle: string }[]; meta: { total: number } }>('/products/');
    assert.deepEqual(
      list.data.map((p) => p.handle),
      ['echo', 'foxtrot', 'bravo', 'delta', 'alpha', 'golf'],
    );
    assert.equal(list.meta.total, 6);
    const shirt = await api<{ id: number; price: number; currency: string; in_stock: boolean }>('/products/alpha');
    assert.deepEqual([shirt.id, shirt.price, shirt.currency, shirt.in_stock], [1, 300, 'EUR', true]);
  });

  test('passes a query string through unchanged', async () => {
    const { baseUrl } = shop;
    const { api } = createClient({ baseUrl, projectId: 'shop' });
    const page = await api<{ data: { handle: string }[]; meta: object }>('/products/?order=price_asc&perpage=2&page=2');
    assert.deepEqual(
      page.data.map((p) => p.handle),
      ['foxtrot', 'alpha'],
    );
    assert.deepEqual(page.meta, { page: 2, perpage: 2, total: 6, pages: 3 });
  });

  test('a base address with a trailing slash works the same', async () => {
    const { baseUrl } = shop;
    const plans = await createClient({ baseUrl: `${baseUrl}/`, projectId: 'shop' }).api<{ data: { id: number }[] }>(
      '/plans/',
    );
    assert.deepEqual(
      plans.data.map((p) => p.id),
      [1, 4],
    );
  });

  test('a 404 rejects with an ApiError holding status, code, message and the body', async () => {
    const { baseUrl } = shop;
    const { api } = createClient({ baseUrl, projectId: 'shop' });
    const error = await api('/products/charlie').then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 404);
    assert.equal(error.code, 'not_found');
    assert.match(error.message, /charlie/);
    assert.deepEqual(error.body, { error: { status: 404, code: 'not_found', message: error.message } });
  });

  test('a 400 carries the field details of the API', async () => {
    const { baseUrl } = shop;
    const { api } = createClient({ baseUrl, projectId: 'shop' });
    const error = await api('/products/?perpage=500').then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 'invalid_request');
    assert.equal(error.details[0]?.field, 'perpage');
  });

  test('without a key a protected call is a 401; with one, POST sends JSON and resolves to the update', async (t) => {
    const { baseUrl, key } = await liveServer(t, backend);
    const anonymous = createClient({ baseUrl, projectId: 'shop' });
    await assert.rejects(anonymous.api('/products/1', { method: 'POST', body: { price: 5000 } }), {
      name: 'ApiError',
      status: 401,
      code: 'unauthorized',
    });
    const { api } = createClient({ baseUrl, projectId: 'shop', apiKey: key });
    const updated = await api<{ price: number; name: string }>('/products/1', {
      method: 'POST',
      body: { price: 5000 },
    });
    assert.deepEqual([updated.price, updated.name], [5000, 'apple']);
    assert.equal((await anonymous.api<{ price: number }>('/products/alpha')).price, 5000);
  });

  test('a hidden product is reachable with fetch_hidden and a key, as the API decides', async () => {
    const { baseUrl, key } = shop;
    const { products } = createClient({ baseUrl, projectId: 'shop', apiKey: key });
    assert.equal((await products.get('charlie', { fetch_hidden: true })).show_in_store, false);
  });
});

test('a network failure rejects with a NetworkError that says plainly why; the cause is the fetch error', async () => {
  const port = await closedPort();
  const { api } = createClient({ baseUrl: `http://127.0.0.1:${port}`, projectId: 'shop', retries: 0 });
  const error = await api('/products/').then(
    () => assert.fail('resolved'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof NetworkError);
  assert.equal(
    error.message,
    `GET http://127.0.0.1:${port}/v2/projects/shop/products/: connect ECONNREFUSED 127.0.0.1:${port}`,
  );
  assert.ok(error.cause instanceof TypeError, 'the cause is what fetch threw');
});

test('a path that does not start with "/" is refused before any request', async () => {
  let called = false;
  const { api } = createClient({
    baseUrl: 'http://example.invalid',
    projectId: 'shop',
    fetch: async () => ((called = true), new Response('{}')),
  });
  await assert.rejects(api('products/'), { name: 'TypeError', message: /must start with "\/"/ });
  assert.equal(called, false);
});

test('a non-JSON error answer (a proxy) still rejects with an ApiError naming the status', async () => {
  const fetch = async () => new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' });
  const error = await createClient({ baseUrl: 'http://x', projectId: 'p', fetch })
    .api('/plans/')
    .catch((e: unknown) => e);
  assert.ok(error instanceof ApiError);
  assert.deepEqual(
    [error.status, error.code, error.message, error.body],
    [502, 'http_502', 'HTTP 502 Bad Gateway', '<h1>Bad gateway</h1>'],
  );
});

test('the project id is encoded into the path, and the key travels as a Bearer header', async () => {
  const seen: { url: string; auth: string | null; type: string | null }[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    seen.push({
      url: url instanceof Request ? url.url : String(url),
      auth: headers.get('authorization'),
      type: headers.get('content-type'),
    });
    return Response.json({ ok: true });
  };
  const client = createClient({ baseUrl: 'http://h/prefix', projectId: 'my shop', apiKey: 'sk_1', fetch });
  await client.orders.update(7, { payment_status: 'paid' });
  assert.deepEqual(seen, [
    { url: 'http://h/prefix/v2/projects/my%20shop/orders/7', auth: 'Bearer sk_1', type: 'application/json' },
  ]);
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
