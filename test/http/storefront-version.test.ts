import assert from 'node:assert/strict';
import { type IncomingMessage, createServer } from 'node:http';
import { test } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { noteWrite, writesCountFor, writtenVersion } from '../../src/db/written-versions.js';
import { eachBackend } from '../support/each-backend.js';
import { call } from '../support/request.js';
import { shopApp } from '../support/shop-app.js';

// The Storefront-Version header (CONTRACT 16, docs/API.md "Read replicas and
// Storefront-Version"), on one database: every answer of a project carries the version it
// reflects, a write's answer the version that includes it, and a bad value is a 400. The
// routing to replicas is proven against a real standby (test/storage/postgres-read-replicas).

eachBackend('Storefront-Version', (backend) => {
  test('answers carry the version; a write answers a newer one; none outside a project', async (t) => {
    const shop = await shopApp(t, backend);
    const read = await shop.call('GET', '/products/1');
    const before = Number(read.headers['storefront-version']);
    assert.ok(before >= 1, `version ${String(read.headers['storefront-version'])}`);
    const list = await shop.call('GET', '/products/?perpage=2');
    assert.equal(list.headers['storefront-version'], String(before));
    const write = await shop.post('/products/1', { price: 999 });
    assert.equal(write.status, 200);
    assert.equal(write.headers['storefront-version'], String(before + 1));
    const after = await shop.call('GET', '/products/1', { headers: { 'storefront-version': String(before + 1) } });
    assert.equal(after.headers['storefront-version'], String(before + 1));
    assert.equal(after.body.price, 999);
    // Asking a version no database has reached: the primary answers what it has.
    const ahead = await shop.call('GET', '/products/1', { headers: { 'storefront-version': '999999' } });
    assert.equal(ahead.status, 200);
    assert.equal(ahead.headers['storefront-version'], String(before + 1));
    // No such project: version 0. Outside a project: no header.
    const missing = await call(shop.app, 'GET', '/v2/projects/nowhere/products/');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['storefront-version'], '0');
    assert.equal((await call(shop.app, 'GET', '/healthz')).headers['storefront-version'], undefined);
  });

  test('a bad Storefront-Version is a 400 in the error envelope', async (t) => {
    const shop = await shopApp(t, backend);
    for (const bad of ['abc', '-1', '1.5', '1e3', '', '12345678901234567890']) {
      const answer = await shop.call('GET', '/products/1', { headers: { 'storefront-version': bad } });
      assert.equal(answer.status, 400, JSON.stringify(bad));
      assert.equal(answer.body.error.code, 'invalid_request');
      assert.equal(answer.body.error.details[0].field, 'Storefront-Version');
    }
  });
});

test('the client sends back the highest Storefront-Version it has seen of its project', async (t) => {
  const sent: (string | undefined)[] = [];
  const versions = ['4', '7', '5', undefined];
  const server = createServer((req: IncomingMessage, res) => {
    sent.push(req.headers['storefront-version'] as string | undefined);
    const version = versions[sent.length - 1];
    res.writeHead(200, { 'content-type': 'application/json', ...(version ? { 'storefront-version': version } : {}) });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const { api } = createClient({ baseUrl, projectId: 'shop' });
  for (let i = 0; i < 4; i++) await api('/products/');
  await api('/products/', { headers: { 'Storefront-Version': '2' } }); // the caller's own wins
  assert.deepEqual(sent, [undefined, '4', '7', '7', '2']);
});

test("a process remembers its writes per project, also those of its import jobs' own storage", () => {
  const serving = {};
  const jobs = {};
  writesCountFor(jobs, serving);
  noteWrite(serving, 'shop', 4);
  noteWrite(jobs, 'shop', 9);
  noteWrite(serving, 'shop', 7); // an older commit acknowledged later does not lower it
  assert.equal(writtenVersion(serving, 'shop'), 9);
  assert.equal(writtenVersion(serving, 'other'), 0);
});
