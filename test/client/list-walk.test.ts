import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { test } from 'node:test';
import { type Product, createClient } from '../../src/client/index.js';
import { importDocument } from '../../src/import/import.js';
import { eachBackend } from '../support/each-backend.js';
import { liveServer } from '../support/live-server.js';
import { SHOP, shopDocument } from '../support/shop.js';

// all() while the catalog changes (packages/client/src/list-walk.ts). The fixture shop's
// visible products, newest first (the default order), two to a page: [5, 6] [2, 4] [1, 7].
// Writes made between two pages (the walk is lazy: the next page is asked for only when the
// records of this one were taken) shift the pages of a plain offset walk, which would miss
// product 2 (pulled back onto a page already read) and product 7 (moved to the front).

const shopProduct = (id: number) => shopDocument().products.find((p) => p.id === id)!;

eachBackend('all() under concurrent writes', (backend) => {
  test('every product the list holds at the end is handed out once, whatever moved or left during the walk', async (t) => {
    const { baseUrl, storage } = await liveServer(t, backend);
    const write = (products: object[]) =>
      importDocument(storage.db, { project: { id: SHOP, name: 'Shop', currency: 'EUR' }, products });
    const client = createClient({ baseUrl, projectId: SHOP });

    const walk = client.products.all({ perpage: 2 });
    const handed: Product[] = [];
    for await (const product of walk) {
      handed.push(product);
      if (handed.length === 2) {
        // After page 1: product 5 is hidden, which pulls product 2 back onto page 1.
        await write([{ ...shopProduct(5), show_in_store: false }]);
      }
      if (handed.length === 4) {
        // After page 2: product 1 is deleted and product 7 becomes the newest.
        await write([
          { id: 1, deleted: true },
          { ...shopProduct(7), created_at: 9000 },
        ]);
      }
    }
    const ids = handed.map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length, `no product twice: ${ids.join(', ')}`);
    const now = (await client.products.list({ perpage: 100 })).data;
    assert.deepEqual(
      now.map((p) => p.id),
      [7, 6, 2, 4],
    );
    for (const product of now)
      assert.ok(ids.includes(product.id), `product ${product.id} was handed out: ${ids.join(', ')}`);
    assert.equal(walk.passes, 2, 'a second pass found what the first one could not');

    // The walk's cursor, from before its first page, brings what it gave up to date exactly.
    const mirror = new Map(handed.map((p) => [p.id, p]));
    for await (const change of client.changes({ since: walk.cursor, types: ['product'] })) {
      if (change.action === 'delete') mirror.delete(change.id);
      else mirror.set(change.id, change.record as Product);
    }
    assert.deepEqual(
      [...mirror.values()].sort((a, b) => a.id - b.id),
      [...now].sort((a, b) => a.id - b.id),
    );
  });

  test('a list that changes during every pass makes all() reject after maxPasses, saying what to do', async (t) => {
    const { baseUrl, storage } = await liveServer(t, backend);
    let price = 1000;
    // Product 6's price changes before each page is read, in every pass.
    const client = createClient({
      baseUrl,
      projectId: SHOP,
      fetch: async (url, init) => {
        if ((url instanceof Request ? url.url : url.toString()).includes('/products/')) {
          const record = { ...shopProduct(6), price: price++ };
          await importDocument(storage.db, {
            project: { id: SHOP, name: 'Shop', currency: 'EUR' },
            products: [record],
          });
        }
        return fetch(url, init);
      },
    });
    const walk = client.products.all({ perpage: 2 }, { maxPasses: 2 });
    const ids: number[] = [];
    await assert.rejects(async () => {
      for await (const product of walk) ids.push(product.id);
    }, /all\(\): \/products\/ changed during each of 2 walks; follow changes\(\) instead/);
    assert.equal(new Set(ids).size, ids.length, 'still no product twice');
    assert.equal(walk.passes, 2);
  });
});

test('a 429 in the middle of a walk is waited out, and the walk goes on from the page it stopped at', async (t) => {
  const { baseUrl } = await liveServer(t, 'sqlite');
  const pages: string[] = [];
  let refused = false;
  // In front of the server: the first request for page 2 is answered 429, Retry-After 1.
  const proxy = createServer((req, res) => {
    const url = new URL(req.url!, baseUrl);
    if (url.pathname.endsWith('/products/')) pages.push(url.searchParams.get('page')!);
    if (url.searchParams.get('page') === '2' && !refused) {
      refused = true;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ error: { status: 429, code: 'rate_limited', message: 'too many requests' } }));
      return;
    }
    const upstream = request(`${baseUrl}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => proxy.close(resolve)));

  const client = createClient({
    baseUrl: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`,
    projectId: SHOP,
  });
  const started = Date.now();
  const ids: number[] = [];
  for await (const product of client.products.all({ perpage: 2 })) ids.push(product.id);
  assert.deepEqual(ids, [5, 6, 2, 4, 1, 7]);
  assert.deepEqual(pages, ['1', '2', '2', '3'], 'page 2 asked again, page 1 not');
  assert.ok(Date.now() - started >= 950, 'Retry-After was waited for');
});
