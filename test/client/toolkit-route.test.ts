import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { TOOLKIT_CACHE_CONTROL } from '../../src/client/toolkit-route.js';
import { testApp } from '../support/app.js';

// GET /toolkit.js: the built script, cacheable for a day, revalidated by ETag, open to any origin.

const built = readFileSync(new URL('../../toolkit.js', import.meta.url), 'utf8');

test('GET /toolkit.js answers the built script with a long cache lifetime, an ETag and CORS *', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const response = await app.inject({ url: '/toolkit.js', headers: { origin: 'https://shop.example' } });
  assert.equal(response.statusCode, 200);
  assert.equal(response.body, built);
  assert.equal(response.headers['content-type'], 'application/javascript; charset=utf-8');
  assert.equal(response.headers['cache-control'], TOOLKIT_CACHE_CONTROL);
  assert.match(TOOLKIT_CACHE_CONTROL, /^public, max-age=\d{5,}$/);
  assert.match(String(response.headers.etag), /^"[^"]+"$/);
  assert.equal(response.headers['access-control-allow-origin'], '*');
});

test('a matching If-None-Match is a 304 that keeps the long lifetime; HEAD answers the headers alone', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const { etag } = (await app.inject({ url: '/toolkit.js' })).headers;
  const revalidated = await app.inject({ url: '/toolkit.js', headers: { 'if-none-match': String(etag) } });
  assert.equal(revalidated.statusCode, 304);
  assert.equal(revalidated.body, '');
  assert.equal(revalidated.headers.etag, etag);
  assert.equal(revalidated.headers['cache-control'], TOOLKIT_CACHE_CONTROL);
  const stale = await app.inject({ url: '/toolkit.js', headers: { 'if-none-match': '"something-older"' } });
  assert.equal(stale.statusCode, 200);
  const head = await app.inject({ method: 'HEAD', url: '/toolkit.js' });
  assert.deepEqual(
    [head.statusCode, head.body, head.headers.etag, head.headers['cache-control']],
    [200, '', etag, TOOLKIT_CACHE_CONTROL],
  );
});

test('the API keeps its own revalidate-every-time caching beside the toolkit', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const response = await app.inject({ url: '/v2/projects/nowhere/plans/' });
  assert.equal(response.headers['cache-control'], 'public, no-cache');
});

test('the toolkit is one minified ES2019 classic script that defines window.storefront', () => {
  // Under 9 KiB (8.0 KiB since the operator's calls — project, keys, webhooks — left it for the
  // Node client and the console only, issue 28).
  assert.ok(built.length < 9 * 1024, `small: ${built.length} bytes`);
  assert.equal(built.trim().split('\n').length, 2, 'a banner line and one minified line');
  // ES2020+ syntax an ES2019 browser cannot parse (the script holds no such text in strings).
  assert.doesNotMatch(built, /\?\?|\?\.[a-zA-Z_$[(]/);
  assert.doesNotMatch(built, /^\s*(import|export)\s/m, 'no module syntax');
  assert.match(built, /window\.storefront=/);
});
