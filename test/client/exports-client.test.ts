import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { ApiError, createClient } from '../../src/client/index.js';
import { eachBackend } from '../support/each-backend.js';
import { testApp } from '../support/app.js';
import { SHOP, seedShop } from '../support/shop.js';

// The client's exports helpers against a real server: each answers a web ReadableStream of
// the file, read as a Node stream or whole; an error answer is an ApiError, before any byte.

eachBackend('client exports', (backend) => {
  test('products, orders and project as streams; a refused export is an ApiError', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    await seedShop(storage);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const client = createClient({ baseUrl, projectId: SHOP, apiKey: await key(SHOP) });

    const products = await new Response(
      await client.exports.products({ order: 'price_asc', fetch_hidden: true }),
    ).text();
    const list = await client.products.list({ order: 'price_asc', fetch_hidden: true, perpage: 100 });
    const ids = products
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((row) => Number(row.split(',')[0]));
    assert.deepEqual(
      ids,
      list.data.map((p) => p.id),
    );

    let orders = '';
    for await (const chunk of Readable.fromWeb((await client.exports.orders({ payment_status: 'paid' })) as never))
      orders += String(chunk);
    assert.match(orders, /^\ufeffid,customer_email,/, 'a byte order mark for spreadsheets');
    const plain = await new Response(
      await client.exports.orders({ payment_status: 'paid', bom: false, delimiter: 'semicolon' }),
    ).text();
    assert.match(plain, /^id;customer_email;customer_name;items;/, 'bom: false and delimiter: semicolon');
    assert.equal(
      orders.trimEnd().split('\r\n').length,
      1 + (await client.orders.list({ payment_status: 'paid' })).meta.total,
    );

    const project = await new Response(await client.exports.project()).text();
    assert.equal(JSON.parse(project.split('\n')[0]).type, 'project');

    const narrow = createClient({ baseUrl, projectId: SHOP, apiKey: await key(SHOP, { scopes: ['products:write'] }) });
    await assert.rejects(narrow.exports.orders(), (e: unknown) => e instanceof ApiError && e.status === 403);
    await assert.rejects(
      narrow.exports.products({ fetch_hidden: true }),
      (e: unknown) => e instanceof ApiError && e.status === 403,
    );
  });
});
