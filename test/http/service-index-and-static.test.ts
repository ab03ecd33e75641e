import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isUnlimited } from '../../src/plugins/rate-limit.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { call } from '../support/request.js';
import { seedShop } from '../support/shop.js';

// What a stranger and a browser meet outside the API itself: GET / points at everything,
// the static pages do not spend the address's rate-limit budget, and browser code can read
// WWW-Authenticate.

eachBackend('the service index, static pages and CORS', (backend) => {
  test('GET / is a JSON index whose every link answers', async (t) => {
    const { app } = await testApp(t, backend);
    const r = await call(app, 'GET', '/');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.equal(r.body.name, 'Storefront API');
    assert.deepEqual(r.body.links, {
      docs: '/docs',
      openapi: '/v2/openapi.json',
      toolkit: '/toolkit.js',
      health: '/healthz',
      ready: '/readyz',
    });
    for (const link of Object.values<string>(r.body.links)) {
      const answer = await call(app, 'GET', link);
      assert.ok(answer.status === 200 || answer.status === 302, `${link}: ${answer.status}`);
    }
    assert.equal((await call(app, 'HEAD', '/')).status, 200);
  });

  test('/docs, its assets, the document and /toolkit.js do not spend the address budget', async (t) => {
    const { app, storage } = await testApp(t, backend, { rateLimit: { addressMax: 2, windowMs: 60_000 } });
    await seedShop(storage);
    const statics = [
      '/',
      '/docs',
      '/docs/',
      '/docs/static/index.html',
      '/docs/static/swagger-ui.css',
      '/docs/json',
      '/v2/openapi.json',
      '/toolkit.js',
    ];
    for (let round = 0; round < 3; round++)
      for (const url of statics) {
        const r = await call(app, 'GET', url);
        assert.notEqual(r.status, 429, url);
        assert.equal(r.headers['ratelimit-remaining'], undefined, url);
      }
    // The API itself still counts: the whole budget is left for it.
    assert.equal((await call(app, 'GET', '/v2/projects/shop/plans/')).status, 200);
    assert.equal((await call(app, 'GET', '/v2/projects/shop/plans/')).status, 200);
    assert.equal((await call(app, 'GET', '/v2/projects/shop/plans/')).status, 429);
    // A path that merely starts like a static one is limited like any other.
    for (const path of ['/docsx', '/toolkit.jsx', '/v2/projects/shop/docs', '/healthz/x'])
      assert.equal(isUnlimited(path), false, path);
  });

  test('browser code can read WWW-Authenticate on a 401', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await seedShop(storage);
    const r = await call(app, 'GET', '/v2/projects/shop/users/', { headers: { origin: 'https://shop.example' } });
    assert.equal(r.status, 401);
    assert.equal(r.headers['www-authenticate'], 'Bearer');
    const exposed = String(r.headers['access-control-expose-headers'])
      .toLowerCase()
      .split(/\s*,\s*/);
    assert.ok(exposed.includes('www-authenticate'), exposed.join(','));
  });
});
