import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import { type Server, type Socket, createServer, connect as tcpConnect } from 'node:net';
import { describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import { ConfigError, DEFAULT_RATE_LIMIT, loadConfig } from '../../src/config.js';
import { createRedis } from '../../src/plugins/rate-limit.js';
import { testApp } from '../support/app.js';
import { freePort } from '../support/processes.js';
import { seedShop } from '../support/shop.js';
import { suite } from '../support/suite.js';

// Rate limits per client address and per API key, in memory or shared through Redis, and
// failing open when Redis is away.

const randomAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('rate limits (in memory)', () => {
  test('per address: RateLimit-* headers count down, then 429 rate_limited with Retry-After', async (t) => {
    const { app, storage } = await testApp(t, 'sqlite', { rateLimit: { addressMax: 3, windowMs: 60_000 } });
    await seedShop(storage);
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ url: '/v2/projects/shop/plans/' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-limit'], '3');
      assert.equal(res.headers['ratelimit-remaining'], String(2 - i));
      assert.equal(res.headers['ratelimit-policy'], '3;w=60');
      assert.ok(Number(res.headers['ratelimit-reset']) <= 60);
    }
    const limited = await app.inject({ url: '/v2/projects/shop/products/' });
    assert.equal(limited.statusCode, 429);
    assert.deepEqual(Object.keys(limited.json().error).sort(), ['code', 'message', 'status']);
    assert.equal(limited.json().error.code, 'rate_limited');
    assert.equal(limited.json().error.status, 429);
    assert.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60);
    assert.equal(limited.headers['ratelimit-remaining'], '0');
    // Another address has its own budget; probes are never limited.
    assert.equal(
      (await app.inject({ url: '/v2/projects/shop/plans/', remoteAddress: randomAddress() })).statusCode,
      200,
    );
    for (const url of ['/healthz', '/readyz', '/metrics'])
      assert.equal((await app.inject({ url })).statusCode, 200, url);
  });

  test('made-up keys do not buy a fresh budget: 401s count against the address', async (t) => {
    const { app, storage } = await testApp(t, 'sqlite', { rateLimit: { addressMax: 4 } });
    await seedShop(storage);
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await app.inject({
        url: '/v2/projects/shop/products/?fetch_hidden=true',
        headers: { authorization: `Bearer sfk_${'x'.repeat(38 - String(i).length)}${i}` },
      });
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429]);
  });

  test('per key: one key spread over many addresses is limited; other keys and anonymous callers are not', async (t) => {
    const { app, storage, key } = await testApp(t, 'sqlite', { rateLimit: { addressMax: 100, keyMax: 3 } });
    await seedShop(storage);
    const busy = await key('shop');
    const ask = (k: string) =>
      app.inject({
        url: '/v2/projects/shop/products/?fetch_hidden=true',
        headers: { authorization: `Bearer ${k}` },
        remoteAddress: randomAddress(),
      });
    for (let i = 0; i < 3; i++) assert.equal((await ask(busy)).statusCode, 200);
    const limited = await ask(busy);
    assert.equal(limited.statusCode, 429);
    assert.match(limited.json().error.message, /API key/);
    assert.equal(limited.headers['ratelimit-limit'], '3');
    assert.equal((await ask(await key('shop'))).statusCode, 200);
    assert.equal(
      (await app.inject({ url: '/v2/projects/shop/products/', remoteAddress: randomAddress() })).statusCode,
      200,
    );
  });

  test('defaults are generous: a static-site build paging a big catalog from one address is not limited', async (t) => {
    assert.ok(DEFAULT_RATE_LIMIT.addressMax >= 1000 && DEFAULT_RATE_LIMIT.windowMs <= 60_000);
    const { app, storage } = await testApp(t, 'sqlite');
    await seedShop(storage);
    // 1,200 requests in well under a minute: 120,000 products at 100 a page.
    for (let i = 0; i < 1200; i++) {
      const res = await app.inject({ url: `/v2/projects/shop/products/?perpage=100&page=${i + 1}` });
      assert.equal(res.statusCode, 200);
    }
  });

  test('configuration from the environment, checked at start-up', () => {
    const config = loadConfig({
      RATE_LIMIT_ADDRESS_MAX: '10',
      RATE_LIMIT_KEY_MAX: '20',
      RATE_LIMIT_WINDOW_MS: '1000',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    assert.deepEqual(config.rateLimit, {
      enabled: true,
      addressMax: 10,
      keyMax: 20,
      windowMs: 1000,
      redisUrl: 'redis://127.0.0.1:6379',
    });
    assert.equal(loadConfig({ RATE_LIMIT: 'off' }).rateLimit.enabled, false);
    assert.deepEqual(loadConfig({}).rateLimit, { ...DEFAULT_RATE_LIMIT, redisUrl: undefined });
    for (const env of [
      { RATE_LIMIT_ADDRESS_MAX: '0' },
      { RATE_LIMIT_KEY_MAX: 'many' },
      { RATE_LIMIT: 'maybe' },
      { REDIS_URL: 'http://x' },
      { HEADERS_TIMEOUT_MS: '99999', REQUEST_TIMEOUT_MS: '1000' },
    ]) {
      assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
    }
  });
});

const REDIS_URL = process.env.REDIS_URL_TEST;
const REDIS_SKIP = REDIS_URL
  ? false
  : 'Redis rate-limit tests skipped: REDIS_URL_TEST is not set (e.g. redis://127.0.0.1:6379)';

async function ready(redis: Redis): Promise<Redis> {
  if (redis.status !== 'ready') await once(redis, 'ready');
  return redis;
}

/** A loopback TCP proxy to Redis that the test can cut, to simulate an outage. */
async function proxy(target: URL): Promise<{ url: string; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

suite('rate limits shared through Redis', { skip: REDIS_SKIP }, () => {
  test('two app instances with their own Redis clients share one budget', async (t) => {
    const a = await ready(createRedis(REDIS_URL!));
    const b = await ready(createRedis(REDIS_URL!));
    t.after(() => {
      a.disconnect();
      b.disconnect();
    });
    const first = await testApp(t, 'sqlite', { rateLimit: { addressMax: 5 }, redis: a });
    await seedShop(first.storage);
    const second = await testApp(t, 'sqlite', { rateLimit: { addressMax: 5 }, redis: b, storage: first.storage });
    const address = randomAddress();
    const ask = (app: typeof first.app) => app.inject({ url: '/v2/projects/shop/plans/', remoteAddress: address });
    const statuses = [];
    for (const app of [first.app, second.app, first.app, second.app, first.app, second.app, first.app])
      statuses.push((await ask(app)).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
  });

  test('a Redis outage neither crashes the service nor stalls requests: limits fail open', async (t) => {
    const cut = await proxy(new URL(REDIS_URL!));
    const redis = await ready(createRedis(cut.url));
    t.after(() => redis.disconnect());
    const { app, storage } = await testApp(t, 'sqlite', { rateLimit: { addressMax: 2 }, redis });
    await seedShop(storage);
    const address = randomAddress();
    const ask = () => app.inject({ url: '/v2/projects/shop/plans/', remoteAddress: address });
    assert.deepEqual([(await ask()).statusCode, (await ask()).statusCode, (await ask()).statusCode], [200, 200, 429]);

    await cut.cut();
    const started = Date.now();
    for (let i = 0; i < 20; i++) assert.equal((await ask()).statusCode, 200);
    assert.ok(Date.now() - started < 5000, `20 requests during the outage took ${Date.now() - started} ms`);
  });

  test('a Redis that was never there (nothing listening) does not stop the service starting or answering', async (t) => {
    const port = await freePort();
    const started = Date.now();
    const { app, storage } = await testApp(t, 'sqlite', {
      rateLimit: { addressMax: 2, redisUrl: `redis://127.0.0.1:${port}` },
    });
    await seedShop(storage);
    for (let i = 0; i < 10; i++) assert.equal((await app.inject({ url: '/v2/projects/shop/plans/' })).statusCode, 200);
    assert.ok(Date.now() - started < 5000);
  });
});
