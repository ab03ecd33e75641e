import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { ConfigError, DEFAULT_CACHES, loadConfig } from '../../src/config.js';
import httpCaching from '../../src/plugins/http-caching.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { seedShop } from '../support/shop.js';

// The request pipeline as plugins (docs/ARCHITECTURE.md, "The request pipeline"): its order is enforced at
// start-up, and the answer cache changes nothing a client can see.

test('cache settings come from the environment, checked at start-up and frozen', () => {
  assert.deepEqual(loadConfig({}).caches, DEFAULT_CACHES);
  const config = loadConfig({
    STOREFRONT_ANSWER_CACHE: '0',
    STOREFRONT_ANSWER_CACHE_BYTES: '1024',
    STOREFRONT_COUNT_CACHE: 'off',
    STOREFRONT_COUNT_CACHE_ENTRIES: '5',
    STOREFRONT_RECORD_CACHE: 'off',
    STOREFRONT_RECORD_CACHE_BYTES: '2048',
    STOREFRONT_SEARCH_INDEX_BYTES: '0',
    STOREFRONT_SEARCH_THREADS: '3',
  });
  assert.deepEqual(config.caches, {
    answers: false,
    answerBytes: 1024,
    counts: false,
    countEntries: 5,
    records: false,
    recordBytes: 2048,
    searchIndexBytes: 0,
    searchThreads: 3,
    searchThreadFrom: 20_000,
    brokenRecordVersions: false,
    brokenAnswerReuse: false,
  });
  assert.ok(Object.isFrozen(config.caches) && Object.isFrozen(config.rateLimit) && Object.isFrozen(config.limits));
  for (const env of [
    { STOREFRONT_ANSWER_CACHE: 'maybe' },
    { STOREFRONT_ANSWER_CACHE_BYTES: 'lots' },
    { STOREFRONT_COUNT_CACHE_ENTRIES: '0' },
    { STOREFRONT_RECORD_CACHE_BYTES: 'lots' },
    { STOREFRONT_SEARCH_INDEX_BYTES: '-1' },
    { STOREFRONT_SEARCH_THREADS: 'many' },
  ]) {
    assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
  }
});

test('the ETag hook refuses to start before the answer cache and the project scope', async () => {
  const app = Fastify();
  await assert.rejects(async () => {
    await app.register(httpCaching);
    await app.ready();
  }, /FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED|dependency/i);
  await app.close().catch(() => {});
});

eachBackend('answer cache', (backend) => {
  test('on or off, the same answers, ETags and 304s', async (t) => {
    const { app: on, storage } = await testApp(t, backend);
    await seedShop(storage);
    const { app: off } = await testApp(t, backend, { storage, caches: { answers: false } });
    for (const url of ['/v2/projects/shop/products/?perpage=3', '/v2/projects/shop/products/1']) {
      // Twice on the cached app: a miss, then a hit.
      const [miss, hit, plain] = [await on.inject({ url }), await on.inject({ url }), await off.inject({ url })];
      for (const res of [miss, hit, plain]) assert.equal(res.statusCode, 200, url);
      assert.equal(hit.body, plain.body, url);
      assert.equal(miss.body, plain.body, url);
      assert.equal(hit.headers.etag, plain.headers.etag, url);
      assert.equal(hit.headers['content-type'], plain.headers['content-type'], url);
      for (const app of [on, off]) {
        const revalidated = await app.inject({ url, headers: { 'if-none-match': String(plain.headers.etag) } });
        assert.equal(revalidated.statusCode, 304, url);
        assert.equal(revalidated.body, '');
      }
    }
  });
});
