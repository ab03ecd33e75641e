import assert from 'node:assert/strict';
import { connect as tcpConnect } from 'node:net';
import { test } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { SHOP, seedShop } from '../support/shop.js';
import { sharedShopApp, shopApp } from '../support/shop-app.js';

// CONTRACT 8: compression with a strong ETag per coding, revalidation across codings, the
// 304 without Content-Type or Content-Length, and the headers a CDN in front reads.

const P = `/v2/projects/${SHOP}`;
const LIST = `${P}/products/`; // the shop's first page: well over 1 KiB
const SMALL = `${P}/plans/1`;

eachBackend('compression and CDN headers', (backend) => {
  const shop = sharedShopApp(backend);
  const get = (url: string, headers: Record<string, string> = {}) => call(shop.app, 'GET', url, { headers });

  test('gzip and brotli as asked, br preferred, q-values honoured, one strong ETag per coding', async () => {
    const plain = await get(LIST);
    assert.ok(plain.bytes.length >= 1024, 'the list must be large enough to compress');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    const etag = String(plain.headers.etag);
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.5', 'br'],
      ['*', 'br'],
      ['br;q=0, *', 'gzip'],
      ['x-gzip', 'gzip'],
      ['identity', undefined],
      ['gzip;q=0, br;q=0', undefined],
    ];
    for (const [accept, coding] of cases) {
      const r = await get(LIST, { 'accept-encoding': accept });
      assert.equal(r.status, 200, accept);
      assert.equal(r.headers['content-encoding'], coding, accept);
      assert.equal(r.headers.etag, coding ? `${etag.slice(0, -1)}-${coding}"` : etag, accept);
      assert.equal(r.headers.vary, 'Accept-Encoding', accept);
      assert.equal(r.text, plain.text, `${accept}: the same JSON once decoded`);
      assert.equal(Number(r.headers['content-length']), r.bytes.length, accept);
      if (coding) assert.ok(r.bytes.length < plain.bytes.length / 3, `${accept}: ${r.bytes.length} bytes`);
    }
  });

  test('answers under 1 KiB go out as they are, with Vary', async () => {
    const r = await get(SMALL, { 'accept-encoding': 'br, gzip' });
    assert.equal(r.status, 200);
    assert.ok(r.bytes.length < 1024);
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(r.headers.vary, 'Accept-Encoding');
    assert.match(String(r.headers.etag), /^"[^"-]*[^"]*"$/);
    assert.doesNotMatch(String(r.headers.etag), /-(br|gzip)"$/);
  });

  test('If-None-Match with the tag of any coding gives a 304 carrying the tag of the coding asked for', async () => {
    const identity = String((await get(LIST)).headers.etag);
    const tags = ['', '-br', '-gzip'].map((suffix) => `${identity.slice(0, -1)}${suffix}"`);
    for (const sent of tags) {
      for (const [accept, expected] of [
        ['br', tags[1]],
        ['gzip', tags[2]],
        ['identity', tags[0]],
      ]) {
        const r = await get(LIST, { 'accept-encoding': accept, 'if-none-match': sent });
        assert.equal(r.status, 304, `${sent} / ${accept}`);
        assert.equal(r.headers.etag, expected, `${sent} / ${accept}`);
        assert.equal(r.bytes.length, 0);
        assert.equal(r.headers['content-type'], undefined);
        assert.equal(r.headers['content-length'], undefined);
        assert.equal(r.headers['content-encoding'], undefined);
        assert.equal(r.headers.vary, 'Accept-Encoding');
        assert.equal(r.headers['cache-control'], 'public, no-cache');
      }
    }
    // The suffix alone is not a version: another answer's tag with -br does not match.
    const other = await get(`${P}/products/?perpage=3`, { 'accept-encoding': 'br', 'if-none-match': tags[1] });
    assert.equal(other.status, 200);
  });

  test('HEAD: the headers of the compressed GET, no body', async () => {
    const full = await get(LIST, { 'accept-encoding': 'gzip' });
    const head = await call(shop.app, 'HEAD', LIST, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(head.status, 200);
    assert.equal(head.bytes.length, 0);
    for (const name of ['content-encoding', 'etag', 'vary', 'content-length', 'content-type'])
      assert.equal(head.headers[name], full.headers[name], name);
  });

  test('Surrogate-Key and Cache-Tag name the project, the list and every product; private answers none', async () => {
    const page = await get(`${LIST}?perpage=3`);
    const ids = page.body.data.map((p: { id: number }) => p.id);
    const names = [`project-${SHOP}`, 'products', ...ids.map((id: number) => `product-${id}`)];
    assert.equal(page.headers['surrogate-key'], names.join(' '));
    assert.equal(page.headers['cache-tag'], names.join(','));
    // A stored answer (the second request is a hit) names the same.
    assert.equal((await get(`${LIST}?perpage=3`)).headers['surrogate-key'], names.join(' '));
    assert.equal((await get(`${P}/products/1`)).headers['surrogate-key'], `project-${SHOP} products product-1`);
    assert.equal((await get(`${P}/categories/`)).headers['cache-tag'], `project-${SHOP},categories`);
    assert.equal((await get(`${P}/plans/`)).headers['surrogate-key'], `project-${SHOP} plans`);
    const revalidated = await get(SMALL, { 'if-none-match': String((await get(SMALL)).headers.etag) });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.headers['surrogate-key'], `project-${SHOP} plans`);

    const hidden = await get(`${LIST}?fetch_hidden=true`, bearer(shop.shopKey));
    assert.equal(hidden.status, 200);
    assert.equal(hidden.headers['cache-control'], 'private, no-store');
    assert.equal(hidden.headers['surrogate-key'], undefined);
    assert.equal(hidden.headers['cache-tag'], undefined);
    const missing = await get(`${P}/products/999`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['surrogate-key'], undefined);
    // No CDN_MAX_AGE here: no CDN-Cache-Control.
    assert.equal(page.headers['cdn-cache-control'], undefined);
  });

  test('If-Match accepts the tag of a compressed answer', async (t) => {
    const { call: shopCall } = await shopApp(t, backend);
    const read = await shopCall('GET', '/products/1', { headers: { 'accept-encoding': 'gzip' } });
    const update = await shopCall('POST', '/products/1', {
      headers: { 'if-match': String(read.headers.etag) },
      body: { name: 'Renamed' },
    });
    assert.equal(update.status, 200, update.text);
  });
});

eachBackend('compression of stored answers and CDN_MAX_AGE', (backend) => {
  test('a stored answer is compressed once per coding, then its bytes are sent again', async (t) => {
    const app = await testApp(t, backend);
    await seedShop(app.storage);
    const answers = app.app.answers!;
    const made = t.mock.method(answers, 'addEncoding');
    const first = await call(app.app, 'GET', LIST, { headers: { 'accept-encoding': 'br' } });
    for (let i = 0; i < 3; i++) {
      const again = await call(app.app, 'GET', LIST, { headers: { 'accept-encoding': 'br' } });
      assert.deepEqual(again.bytes, first.bytes);
    }
    assert.equal(made.mock.callCount(), 1);
    await call(app.app, 'GET', LIST, { headers: { 'accept-encoding': 'gzip' } });
    await call(app.app, 'GET', LIST, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(made.mock.callCount(), 2);
    assert.equal(brotliDecompressSync(first.bytes).toString(), (await call(app.app, 'GET', LIST)).text);
  });

  test('CDN_MAX_AGE adds CDN-Cache-Control to public answers only', async (t) => {
    const app = await testApp(t, backend, { cdnMaxAge: 300 });
    await seedShop(app.storage);
    const key = await app.key(SHOP);
    const publicAnswer = await call(app.app, 'GET', LIST);
    assert.equal(publicAnswer.headers['cdn-cache-control'], 'public, max-age=300, stale-while-revalidate=300');
    assert.equal(publicAnswer.headers['cache-control'], 'public, no-cache');
    const keyed = await call(app.app, 'GET', `${P}/orders/`, { headers: bearer(key) });
    assert.equal(keyed.status, 200);
    assert.equal(keyed.headers['cdn-cache-control'], undefined);
  });

  test('on the wire, a 304 has no Content-Length, Content-Type or body', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await seedShop(storage);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const etag = String((await call(app, 'GET', LIST)).headers.etag);
    const onWire = (method: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = tcpConnect(port, '127.0.0.1', () =>
          socket.write(`${method} ${LIST} HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`),
        );
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('latin1')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const headAnswer = (await onWire('HEAD')).split('\r\n\r\n')[0];
    assert.match(headAnswer, /^HTTP\/1\.1 304 /);
    assert.doesNotMatch(headAnswer, /^content-(length|type):/im);
    const [head, body] = (await onWire('GET')).split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 304 /);
    assert.equal(body, '');
    assert.doesNotMatch(head, /^content-(length|type|encoding):/im);
    assert.doesNotMatch(head, /^transfer-encoding:/im);
    assert.match(head, new RegExp(`^etag: ${etag}\r?$`, 'im'));
    assert.match(head, /^cache-control: public, no-cache\r?$/im);
    assert.match(head, /^access-control-allow-origin: \*\r?$/im);
    assert.match(head, /^vary: Accept-Encoding\r?$/im);
    // gunzip the same answer through fetch, which undoes the coding as a browser does.
    const viaFetch = await fetch(`http://127.0.0.1:${port}${LIST}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(viaFetch.headers.get('content-encoding'), 'gzip');
    assert.deepEqual(await viaFetch.json(), (await call(app, 'GET', LIST)).body);
  });
});
