import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { suiteApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { seedShop } from '../support/shop.js';
import { bearer, call, preflight } from '../support/request.js';

const P = '/v2/projects/shop';

eachBackend('HTTP behaviour', (backend) => {
  const t = suiteApp(backend, (t) => seedShop(t.storage));
  let key: string;
  before(async () => {
    key = await t.key('shop');
  });

  test('CORS on answers, errors included; no cookies', async () => {
    for (const url of [`${P}/products/`, `${P}/products/999`, `${P}/products/?perpage=0`, '/nowhere']) {
      const r = await call(t.app, 'GET', url, { headers: { origin: 'https://shop.example' } });
      assert.equal(r.headers['access-control-allow-origin'], '*', url);
      assert.equal(r.headers['set-cookie'], undefined);
    }
    const r = await call(t.app, 'GET', `${P}/products/`, { headers: { origin: 'https://shop.example' } });
    const exposed = String(r.headers['access-control-expose-headers']).toLowerCase();
    // CONTRACT 8: ETag, Location, Storefront-Version and the rate-limit headers.
    for (const h of [
      'etag',
      'location',
      'storefront-version',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
      'ratelimit-policy',
      'retry-after',
    ])
      assert.ok(exposed.includes(h), h);
    assert.equal(r.headers['access-control-allow-credentials'], undefined);
  });

  test('preflight OPTIONS answers 204 with the allowed methods and headers', async () => {
    const r = await preflight(t.app, `${P}/products/1`);
    assert.equal(r.status, 204);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.deepEqual(String(r.headers['access-control-allow-methods']).split(/, ?/).sort(), ['GET', 'HEAD', 'POST']);
    const allowed = String(r.headers['access-control-allow-headers']).toLowerCase().split(/, ?/).sort();
    // CONTRACT 8's seven, plus X-Request-Id so that browser code can send its own.
    assert.deepEqual(allowed, [
      'authorization',
      'content-type',
      'idempotency-key',
      'if-match',
      'if-none-match',
      'prefer',
      'storefront-version',
      'x-request-id',
    ]);
  });

  test('a preflight allows exactly the methods its path serves: DELETE on a webhook endpoint', async () => {
    const methods = async (url: string, method: string) => {
      const r = await call(t.app, 'OPTIONS', url, {
        headers: {
          origin: 'https://console.example',
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization',
        },
      });
      assert.equal(r.status, 204, url);
      assert.equal(r.headers['access-control-allow-origin'], '*', url);
      return String(r.headers['access-control-allow-methods']).split(/, ?/).sort();
    };
    assert.deepEqual(await methods(`${P}/webhooks/7`, 'DELETE'), ['DELETE']);
    assert.deepEqual(await methods(`${P}/webhooks/7/`, 'DELETE'), ['DELETE']);
    assert.deepEqual(await methods(`${P}/webhooks/`, 'POST'), ['GET', 'HEAD', 'POST']);
    assert.deepEqual(await methods(`${P}/products/charlie?fetch_hidden=true`, 'POST'), ['GET', 'HEAD', 'POST']);
    assert.deepEqual(await methods(`${P}/categories/`, 'GET'), ['GET', 'HEAD']);
    // and the DELETE itself, as a browser then sends it, carries CORS too
    const r = await call(t.app, 'DELETE', `${P}/webhooks/999999`, {
      headers: { origin: 'https://console.example', ...bearer(key) },
    });
    assert.equal(r.status, 404);
    assert.equal(r.headers['access-control-allow-origin'], '*');
  });

  test('/metrics carries no CORS header: scrapers are servers, not browser pages', async () => {
    const r = await call(t.app, 'GET', '/metrics', { headers: { origin: 'https://evil.example' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['access-control-allow-origin'], undefined);
    const p = await call(t.app, 'OPTIONS', '/metrics', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(p.headers['access-control-allow-origin'], undefined);
  });

  test('paths with and without a trailing slash are the same resource', async () => {
    for (const [a, b] of [
      [`${P}/products`, `${P}/products/`],
      [`${P}/products/1`, `${P}/products/1/`],
      [`${P}/categories`, `${P}/categories/`],
      [`${P}/plans/1/`, `${P}/plans/1`],
    ]) {
      const x = await call(t.app, 'GET', a);
      const y = await call(t.app, 'GET', b);
      assert.equal(x.status, 200, a);
      assert.equal(x.text, y.text, a);
    }
  });

  test('ETag and If-None-Match revalidation', async () => {
    const first = await call(t.app, 'GET', `${P}/products/1`);
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[^"]+"$/);
    for (const inm of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
      const r = await call(t.app, 'GET', `${P}/products/1`, { headers: { 'if-none-match': inm } });
      assert.equal(r.status, 304, inm);
      assert.equal(r.text, '');
      assert.equal(r.headers.etag, etag);
    }
    assert.equal(
      (await call(t.app, 'GET', `${P}/products/1`, { headers: { 'if-none-match': '"other"' } })).status,
      200,
    );
    assert.notEqual((await call(t.app, 'GET', `${P}/products/2`)).headers.etag, etag);
    // a change gives a new ETag
    await call(t.app, 'POST', `${P}/products/1`, { body: { price: 301 }, headers: bearer(key) });
    const after = await call(t.app, 'GET', `${P}/products/1`, { headers: { 'if-none-match': etag } });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.etag, etag);
    // errors carry no ETag
    assert.equal((await call(t.app, 'GET', `${P}/products/999`)).headers.etag, undefined);
  });

  test('Cache-Control: private for keyed answers, public revalidated for the rest', async () => {
    const cases: [string, string, Record<string, string>, string][] = [
      ['GET', `${P}/products/`, {}, 'public, no-cache'],
      ['GET', `${P}/products/1`, {}, 'public, no-cache'],
      ['GET', `${P}/categories/`, {}, 'public, no-cache'],
      ['GET', `${P}/plans/`, {}, 'public, no-cache'],
      ['GET', `${P}/products/999`, {}, 'public, no-cache'],
      ['GET', `${P}/products/?fetch_hidden=true`, bearer(key), 'private, no-store'],
      ['GET', `${P}/products/3?fetch_hidden=true`, bearer(key), 'private, no-store'],
      ['GET', `${P}/products/?fetch_hidden=true`, {}, 'private, no-store'],
    ];
    for (const [method, url, headers, expected] of cases) {
      const r = await call(t.app, method as 'GET', url, { headers });
      assert.equal(r.headers['cache-control'], expected, url);
    }
    const post = await call(t.app, 'POST', `${P}/products/1`, { body: { price: 5 }, headers: bearer(key) });
    assert.equal(post.headers['cache-control'], 'private, no-store');
  });

  test('HEAD works wherever GET does', async () => {
    for (const url of [
      `${P}/products/`,
      `${P}/products/alpha`,
      `${P}/categories/`,
      `${P}/categories/1`,
      `${P}/plans/`,
      `${P}/plans/1`,
    ]) {
      const get = await call(t.app, 'GET', url);
      const head = await call(t.app, 'HEAD', url);
      assert.equal(head.status, 200, url);
      assert.equal(head.text, '');
      assert.equal(head.headers.etag, get.headers.etag);
      assert.equal(head.headers['content-type'], get.headers['content-type']);
    }
    assert.equal((await call(t.app, 'HEAD', `${P}/products/999`)).status, 404);
  });

  test('a method the path does not serve is 405 with Allow', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', `${P}/products/1`, 'GET, HEAD, POST, OPTIONS'],
      ['PUT', `${P}/products/1`, 'GET, HEAD, POST, OPTIONS'],
      ['PATCH', `${P}/products/1/`, 'GET, HEAD, POST, OPTIONS'],
      ['POST', `${P}/products/`, 'GET, HEAD, PATCH, OPTIONS'],
      ['DELETE', `${P}/categories/1`, 'GET, HEAD, OPTIONS'],
      ['POST', `${P}/plans`, 'GET, HEAD, OPTIONS'],
    ];
    for (const [method, url, allow] of cases) {
      const r = await call(t.app, method as 'DELETE', url);
      assert.equal(r.status, 405, `${method} ${url}`);
      assert.equal(r.headers.allow, allow);
      assert.equal(r.body.error.code, 'method_not_allowed');
    }
    // whatever the body: nobody reads it
    const withText = await call(t.app, 'PUT', `${P}/products/1`, {
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(withText.status, 405);
    const postText = await call(t.app, 'POST', `${P}/plans/`, {
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(postText.status, 405);
  });

  test('every error is the JSON envelope, with nothing internal in it', async () => {
    const cases: [string, string, number][] = [
      ['GET', '/nowhere', 404],
      ['GET', '/v2/projects/NOPE/products/', 404],
      ['GET', '/v2/projects/ghost/plans/', 404],
      ['GET', `${P}/products/?perpage=500`, 400],
      ['POST', `${P}/products/1`, 401],
      ['DELETE', `${P}/plans/1`, 405],
    ];
    for (const [method, url, status] of cases) {
      const r = await call(t.app, method as 'GET', url);
      assert.equal(r.status, status, url);
      assert.match(String(r.headers['content-type']), /^application\/json/);
      assert.deepEqual(Object.keys(r.body), ['error']);
      assert.equal(r.body.error.status, status);
      assert.equal(typeof r.body.error.code, 'string');
      assert.equal(typeof r.body.error.message, 'string');
      assert.doesNotMatch(r.text, /\bat \w+ \(|node_modules|\/work\/|select |SQLITE/i);
    }
  });
});

eachBackend('hostile paths and text', (backend) => {
  const t = suiteApp(backend, (t) => seedShop(t.storage));

  test('path segments too long to name anything are 404; bad percent-encoding is 400', async () => {
    const long = await call(t.app, 'GET', `${P}/products/${'a'.repeat(600)}`);
    assert.equal(long.status, 404);
    assert.equal(long.body.error.code, 'not_found');
    const handle128 = await call(t.app, 'GET', `${P}/products/${'a'.repeat(128)}`);
    assert.equal(handle128.status, 404);
    const bad = await call(t.app, 'GET', `${P}/products/%E0%A4%A`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_request');
  });

  test('NUL characters are refused in parameters and bodies', async () => {
    const r = await call(t.app, 'GET', `${P}/products/?search=a%00b`);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.details[0].field, 'search');
    const key = await t.key('shop');
    const post = await call(t.app, 'POST', `${P}/products/1`, { body: { name: 'a\u0000b' }, headers: bearer(key) });
    assert.equal(post.status, 400);
    assert.equal(post.body.error.details[0].field, 'name');
  });
});
