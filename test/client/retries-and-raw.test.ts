import assert from 'node:assert/strict';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { test } from 'node:test';
import { ApiError, NetworkError, createClient, memoryCache } from '../../src/client/index.js';
import { eachBackend } from '../support/each-backend.js';
import { sharedLiveServer } from '../support/live-server.js';

// What the client adds over a network (packages/client/README.md): waiting as a 429 or 503
// asks, retrying a read that got no answer, and `{ raw: true }` for status, ETag and headers.

/** A server that answers each request with the next of `answers`, and counts them. */
async function scripted(
  t: { after(fn: () => unknown): void },
  answers: ((res: ServerResponse, req: IncomingMessage) => void)[],
): Promise<{ baseUrl: string; times: number[] }> {
  const times: number[] = [];
  const server = createServer((req, res) => {
    times.push(Date.now());
    answers[Math.min(times.length - 1, answers.length - 1)](res, req);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, times };
}

const tooMany = (retryAfter: string) => (res: ServerResponse) =>
  res
    .writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter })
    .end(JSON.stringify({ error: { status: 429, code: 'rate_limited', message: 'too many requests' } }));
const ok = (res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"' }).end('{"data":[]}');

test('a 429 waits for Retry-After, then the answer that follows is returned', async (t) => {
  const server = await scripted(t, [tooMany('1'), ok]);
  const { api } = createClient({ baseUrl: server.baseUrl, projectId: 'shop' });
  assert.deepEqual(await api('/plans/'), { data: [] });
  assert.equal(server.times.length, 2);
  assert.ok(server.times[1] - server.times[0] >= 950, `waited ${server.times[1] - server.times[0]} ms`);
});

test('a 503 and a POST are retried too (a 429 or 503 applied nothing)', async (t) => {
  const unavailable = (res: ServerResponse) => res.writeHead(503, { 'retry-after': '0' }).end();
  const server = await scripted(t, [unavailable, tooMany('0'), ok]);
  const { api } = createClient({ baseUrl: server.baseUrl, projectId: 'shop' });
  assert.deepEqual(await api('/products/1', { body: { name: 'x' } }), { data: [] });
  assert.equal(server.times.length, 3);
});

test('retries: 0, a Retry-After past maxRetryWaitMs, or retries used up: the 429 rejects', async (t) => {
  const server = await scripted(t, [tooMany('0')]);
  const off = createClient({ baseUrl: server.baseUrl, projectId: 'shop', retries: 0 });
  const error = await off.api('/plans/').catch((e: unknown) => e);
  assert.ok(error instanceof ApiError && error.status === 429 && error.code === 'rate_limited');
  assert.equal(server.times.length, 1);

  const far = await scripted(t, [tooMany('3600')]);
  const started = Date.now();
  const bounded = createClient({ baseUrl: far.baseUrl, projectId: 'shop', maxRetryWaitMs: 5000 });
  assert.equal(((await bounded.api('/plans/').catch((e: unknown) => e)) as ApiError).status, 429);
  assert.ok(Date.now() - started < 1000, 'an hour is not waited for');

  const always = await scripted(t, [tooMany('0')]);
  const twice = createClient({ baseUrl: always.baseUrl, projectId: 'shop', retries: 2 });
  assert.equal(((await twice.api('/plans/').catch((e: unknown) => e)) as ApiError).status, 429);
  assert.equal(always.times.length, 3);
});

test('a GET that got no answer is retried with backoff; a POST is not', async () => {
  let calls = 0;
  const flaky: typeof fetch = async () => {
    calls++;
    if (calls < 3) throw new TypeError('fetch failed', { cause: new Error('read ECONNRESET') });
    return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const { api } = createClient({ baseUrl: 'http://shop.example', projectId: 'shop', fetch: flaky });
  assert.deepEqual(await api('/plans/'), { ok: true });
  assert.equal(calls, 3);

  calls = 0;
  const error = await api('/products/1', { body: { name: 'x' } }).catch((e: unknown) => e);
  assert.ok(error instanceof NetworkError);
  assert.equal(error.message, 'POST http://shop.example/v2/projects/shop/products/1: read ECONNRESET');
  assert.equal(calls, 1);
});

eachBackend('client raw answers', (backend) => {
  const shop = sharedLiveServer(backend);

  test('{ raw: true } gives status, ETag and headers; api(path) still gives the body', async () => {
    const { api } = createClient({ baseUrl: shop.baseUrl, projectId: 'shop' });
    const plain = await api<{ data: unknown[] }>('/plans/');
    const raw = await api<{ data: unknown[] }>('/plans/', { raw: true });
    assert.deepEqual(raw.body, plain);
    assert.equal(raw.status, 200);
    assert.match(raw.etag!, /^"[^"]+"$/);
    assert.equal(raw.headers.get('cache-control'), 'public, no-cache');
    assert.equal(raw.fromCache, false);

    // The docs' own example: If-None-Match by hand. Raw, the 304 resolves.
    const again = await api('/plans/', { raw: true, headers: { 'If-None-Match': raw.etag! } });
    assert.equal(again.status, 304);
    assert.equal(again.body, undefined);
    assert.equal(again.etag, raw.etag);
    // Not raw, it rejects and says what to do.
    const error = await api('/plans/', { headers: { 'If-None-Match': raw.etag! } }).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError && error.status === 304 && error.code === 'not_modified');
    assert.match(error.message, /raw: true/);
  });

  test('with a cache, a GET the caller did not make conditional is a 200 from the cache, flagged', async () => {
    const { api } = createClient({ baseUrl: shop.baseUrl, projectId: 'shop', cache: memoryCache() });
    const first = await api<{ data: unknown[] }>('/plans/', { raw: true });
    assert.equal(first.status, 200);
    assert.equal(first.fromCache, false);
    const second = await api<{ data: unknown[] }>('/plans/', { raw: true });
    assert.equal(second.status, 200); // the server said 304 to the cache's If-None-Match
    assert.equal(second.fromCache, true);
    assert.deepEqual(second.body, first.body);
    assert.equal(second.etag, first.etag);
    // the caller's own If-None-Match still gets its 304
    const own = await api('/plans/', { raw: true, headers: { 'if-none-match': first.etag! } });
    assert.equal(own.status, 304);
    assert.equal(own.fromCache, false);
  });
});
