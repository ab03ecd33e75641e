import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { eachBackend } from '../support/each-backend.js';
import { SHOP } from '../support/shop.js';
import { SHOP_LINE, importApp, ndjson } from './support.js';

// The body is spooled to disk before the import starts: a client that uploads slowly holds
// no write lock, so a product update meanwhile is answered at once.

eachBackend('a slow upload', (backend) => {
  test('holds no write lock: a product update during it succeeds promptly', async (t) => {
    const shop = await importApp(t, backend);
    await shop.app.listen({ port: 0, host: '127.0.0.1' });
    const address = shop.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;

    const upload = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/v2/projects/${SHOP}/imports/`,
      headers: { authorization: `Bearer ${shop.shopKey}`, 'content-type': 'application/x-ndjson' },
    });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      upload.on('error', reject);
    });
    upload.write(ndjson(SHOP_LINE));
    await sleep(300);

    const started = Date.now();
    const update = await shop.send('POST', '/products/1', {
      raw: JSON.stringify({ price: 555 }),
      headers: { 'content-type': 'application/json' },
    });
    // The upload is still open: were its write lock taken, the update would wait for the
    // writer past WRITE_WAIT_MS and answer 503, never 200.
    assert.equal(update.status, 200, `the update took ${Date.now() - started} ms beside the upload`);
    assert.deepEqual((await shop.send('GET', '/imports/')).body, { data: [] }, 'no job before the body is in');

    upload.write(ndjson({ type: 'product', id: 200, handle: 'slowly', name: 'Slowly', price: 1 }));
    await sleep(200);
    upload.end();
    const { status, body } = await answered;
    assert.equal(status, 202);
    const id = (JSON.parse(body) as { id: number }).id;
    assert.equal(((await shop.finished(id)).body as { status: string }).status, 'succeeded');
    assert.equal(((await shop.send('GET', '/products/1')).body as { price: number }).price, 555);
    assert.equal((await shop.send('GET', '/products/200')).status, 200);
  });
});
