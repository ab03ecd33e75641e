import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { eachBackend } from '../support/each-backend.js';
import { testApp } from '../support/app.js';
import { bearer, call } from '../support/request.js';
import { SHOP, seedShop } from '../support/shop.js';

// CONTRACT 19: a flood of requests for project ids that do not exist is 404 (401 where a key
// is needed: no project holds it) without touching a cache: nothing is stored for them, in any
// cache, so the memory they can take is none. Timings and RSS: `npm run bench` (PERFORMANCE.md).

const FLOOD = 5_000;

eachBackend('unknown project ids', (backend) => {
  test(`${FLOOD} requests for random project ids: all 404, no cache grows`, async (t) => {
    // The address budget would answer the flood 429 first (a flood from many addresses is not).
    const { app, storage, key } = await testApp(t, backend, { rateLimit: false });
    await seedShop(storage);
    const shopKey = bearer(await key(SHOP));
    const shopCall = (method: 'GET', url: string, options = {}) =>
      call(app, method, `/v2/projects/${SHOP}${url}`, options);
    // The shop's own answers fill each cache a little first.
    for (const url of ['/products/', '/products/1', '/products/?ids=1,2', '/changes/', '/categories/'])
      assert.equal((await shopCall('GET', url)).status, 200);
    assert.equal((await shopCall('GET', '/orders/', { headers: shopKey })).status, 200);
    const sizes = () => ({
      answers: app.answers?.size,
      counts: app.counts.size,
      pages: app.pages.size,
      records: app.records.size,
      keys: app.keys.size,
    });
    const before = sizes();
    const statuses = new Map<number, number>();
    for (let i = 0; i < FLOOD; i++) {
      const id = randomBytes(6).toString('hex');
      const [url, headers] = [
        [`/v2/projects/${id}/products/`, {}],
        [`/v2/projects/${id}/products/${i + 1}`, {}],
        [`/v2/projects/${id}/changes/?since=MQ`, {}],
        [`/v2/projects/${id}/orders/`, shopKey],
      ][i % 4] as [string, Record<string, string>];
      const { status } = await call(app, 'GET', url, { headers });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // A key is checked before the project (CONTRACT 5): no project holds it, so 401.
    assert.deepEqual(Object.fromEntries(statuses), { 404: (FLOOD * 3) / 4, 401: FLOOD / 4 });
    assert.deepEqual(sizes(), before);
  });
});
