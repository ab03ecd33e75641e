import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect as tcpConnect } from 'node:net';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { eachBackend } from '../support/each-backend.js';
import { testApp } from '../support/app.js';
import { seedShop } from '../support/shop.js';
import { withPlugin } from '../support/storage.js';

// Headers of a JSON API, request ids, redacted logs, probes, metrics and slow clients.

eachBackend('http hardening', (backend) => {
  test('JSON answers: nosniff, no framing, a CSP that allows nothing, no X-Powered-By', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await seedShop(storage);
    for (const url of ['/v2/projects/shop/products/', '/v2/projects/shop/products/999', '/nowhere', '/healthz']) {
      const res = await app.inject({ url });
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
      assert.equal(res.headers['x-frame-options'], 'DENY', url);
      assert.match(String(res.headers['content-security-policy']), /default-src 'none'.*frame-ancestors 'none'/, url);
      assert.equal(res.headers['x-powered-by'], undefined, url);
    }
  });

  test('X-Request-Id: a well-formed one is echoed, anything else is replaced, every answer has one', async (t) => {
    const { app } = await testApp(t, backend);
    const kept = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'build-42.a:b' } });
    assert.equal(kept.headers['x-request-id'], 'build-42.a:b');
    for (const bad of ['has space', 'x'.repeat(200), 'line\u0001break']) {
      const res = await app.inject({ url: '/healthz', headers: { 'x-request-id': bad } });
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    }
    const error = await app.inject({ method: 'POST', url: '/v2/projects/shop/products/1', payload: '{' });
    assert.match(String(error.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  test('logs are JSON with the request id and never contain a key', async (t) => {
    let logs = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        logs += chunk;
        done();
      },
    });
    const { app, storage, key } = await testApp(t, backend, { logger: { level: 'trace', stream } as never });
    await seedShop(storage);
    const good = await key('shop');
    const bad = `sfk_${'A'.repeat(38)}`;
    await app.inject({
      url: '/v2/projects/shop/products/?fetch_hidden=true',
      headers: { authorization: `Bearer ${good}`, 'x-request-id': 'trace-me' },
    });
    await app.inject({
      url: '/v2/projects/shop/products/?fetch_hidden=true',
      headers: { authorization: `Bearer ${bad}` },
    });
    await app.inject({
      method: 'POST',
      url: '/v2/projects/shop/products/1',
      headers: { authorization: `Bearer ${good}`, 'content-type': 'application/json' },
      payload: '{"price":-1}',
    });
    // A log call that includes the headers, as a careless future change might, is redacted too.
    app.log.info({ headers: { authorization: `Bearer ${good}` } }, 'headers logged');
    const lines = logs
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.ok(lines.length >= 6);
    assert.ok(lines.some((l) => l.reqId === 'trace-me'));
    assert.ok(!logs.includes(good), 'a valid key never appears in a log');
    assert.ok(!logs.includes(good.slice(4, 24)));
    assert.ok(!logs.includes(bad));
    assert.ok(logs.includes('[redacted]'));
  });

  test('/healthz answers 200; /readyz is 200 while the database answers and 503 when it does not', async (t) => {
    const { app, storage } = await testApp(t, backend);
    assert.deepEqual((await app.inject({ url: '/healthz' })).json(), { status: 'ok' });
    const ready = await app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().database, backend);
    // A second app whose database cannot answer: PostgreSQL at an address where nothing
    // listens; SQLite (a file that is always there) with every query failing as if the
    // disk had gone.
    const { connect } = await import('../../src/db/connect.js');
    const { freePort } = await import('../support/processes.js');
    const failing: KyselyPlugin = {
      transformQuery() {
        throw Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
      },
      transformResult: async (args) => args.result,
    };
    const gone =
      backend === 'sqlite'
        ? withPlugin(storage, failing)
        : connect(`postgres://postgres@127.0.0.1:${await freePort()}/none`);
    if (backend === 'postgres') t.after(() => gone.close());
    const { buildApp } = await import('../../src/app.js');
    const down = await buildApp({ storage: gone });
    t.after(() => down.close());
    const res = await down.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().error.code, 'unavailable');
    assert.ok(!/sqlite|postgres|select/i.test(res.body));
    assert.equal((await down.inject({ url: '/healthz' })).statusCode, 200);
  });

  test('/metrics: request counts and latency by route pattern and status, cache hits, pool gauges', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await seedShop(storage);
    const first = await app.inject({ url: '/v2/projects/shop/products/1' });
    await app.inject({ url: '/v2/projects/shop/products/1', headers: { 'if-none-match': String(first.headers.etag) } });
    await app.inject({ url: '/v2/projects/shop/products/98765' });
    app.metrics.cacheHits.inc({ cache: 'custom' });
    const res = await app.inject({ url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    const text = res.body;
    assert.match(
      text,
      /http_requests_total\{method="GET",route="\/v2\/projects\/:project_id\/products\/:product",status="200"\} 1/,
    );
    assert.match(
      text,
      /http_requests_total\{method="GET",route="\/v2\/projects\/:project_id\/products\/:product",status="404"\} 1/,
    );
    assert.match(
      text,
      /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v2\/projects\/:project_id\/products\/:product",status="304"\}/,
    );
    assert.match(text, /storefront_cache_hits_total\{cache="http_etag"\} 1/);
    assert.match(text, /storefront_cache_hits_total\{cache="custom"\} 1/);
    assert.ok(!text.includes('98765'), 'raw URLs never become labels');
    if (backend === 'postgres') assert.match(text, /storefront_db_pool_connections \d+/);
  });

  test('/metrics can be closed with a token', async (t) => {
    const { app } = await testApp(t, backend, { metricsToken: 'scrape-secret' });
    assert.equal((await app.inject({ url: '/metrics' })).statusCode, 401);
    assert.equal((await app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode, 401);
    assert.equal(
      (await app.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-secret' } })).statusCode,
      200,
    );
  });

  test('a body over 64 KiB is 413 in the error envelope', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    await seedShop(storage);
    const payload = JSON.stringify({ name: 'x'.repeat(64 * 1024) });
    const res = await app.inject({
      method: 'POST',
      url: '/v2/projects/shop/products/1',
      headers: { authorization: `Bearer ${await key('shop')}`, 'content-type': 'application/json' },
      payload,
    });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().error.code, 'payload_too_large');
  });
});

test('an HTML or script answer keeps its own policy (the strict CSP is for JSON only)', async (t) => {
  // The plugin on its own, with routes of the kind /docs and /toolkit.js are.
  const { default: Fastify } = await import('fastify');
  const { default: securityHeaders } = await import('../../src/plugins/security-headers.js');
  const app = Fastify();
  t.after(() => app.close());
  await app.register(securityHeaders);
  app.get('/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send('<p>docs</p>'));
  app.get('/toolkit.js', async (_req, reply) => reply.type('text/javascript').send('export {}'));
  app.get('/json', async () => ({ ok: true }));
  for (const url of ['/docs', '/toolkit.js']) {
    const res = await app.inject({ url });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-security-policy'], undefined, url);
    assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
  }
  assert.match(String((await app.inject({ url: '/json' })).headers['content-security-policy']), /default-src 'none'/);
});

test('slow clients: headers that never finish are cut off; oversized headers are refused', async (t) => {
  const { app } = await testApp(t, 'sqlite', { limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const started = Date.now();
  const slow = tcpConnect(port, '127.0.0.1');
  let answer = '';
  slow.on('data', (chunk) => (answer += String(chunk)));
  slow.on('error', () => {});
  await once(slow, 'connect');
  slow.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
  const drip = setInterval(() => slow.write('X-Slow: 1\r\n'), 100);
  t.after(() => clearInterval(drip));
  await once(slow, 'close');
  clearInterval(drip);
  assert.ok(Date.now() - started < 5000, 'closed within a few seconds');
  assert.ok(answer === '' || /^HTTP\/1.1 408/.test(answer), answer);
  if (answer) assert.match(answer, /\{"error":\{"status":408,"code":"request_timeout"/);

  const big = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { 'x-big': 'y'.repeat(20 * 1024) } }).then(
    async (r) => ({ status: r.status, body: await r.json() }),
    () => 'closed' as const,
  );
  // Written before Fastify has a request, yet in the envelope like every other error.
  if (big !== 'closed')
    assert.deepEqual(big, {
      status: 431,
      body: { error: { status: 431, code: 'headers_too_large', message: 'request headers are too large' } },
    });
});
