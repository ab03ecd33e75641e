import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { Backend } from '../../src/db/connect.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { SHOP, seedShop } from '../support/shop.js';

// PATCH /v2/projects/<p>/products/ (CONTRACT 18): many partial updates, all or nothing, each
// judged as the single update, failures named by place, one version, one change-feed entry
// and one event per changed product, Idempotency-Key as for single updates.

const P = `/v2/projects/${SHOP}`;

async function setup(t: TestContext, backend: Backend) {
  const built = await testApp(t, backend);
  await seedShop(built.storage);
  await createEndpoint(built.storage, SHOP, 'http://127.0.0.1:9/hook', undefined, Math.floor(Date.now() / 1000));
  const key = await built.key(SHOP);
  const db = built.storage.db;
  const patch = (products: unknown, headers: Record<string, string> = {}, url = `${P}/products/`) =>
    call(built.app, 'PATCH', url, { headers: { ...bearer(key), ...headers }, body: { products } });
  const get = async (ref: string | number) =>
    (await call(built.app, 'GET', `${P}/products/${ref}?fetch_hidden=true`, { headers: bearer(key) })).body;
  const rows = () => db.selectFrom('products').selectAll().where('project_id', '=', SHOP).orderBy('id').execute();
  const version = async () =>
    Number(
      (await db.selectFrom('projects').select('data_version').where('id', '=', SHOP).executeTakeFirstOrThrow())
        .data_version,
    );
  const feedAt = async (seq: number) =>
    (
      await db
        .selectFrom('changes')
        .select(['type', 'id'])
        .where('project_id', '=', SHOP)
        .where('seq', '=', seq)
        .orderBy('id')
        .execute()
    ).map((c) => `${c.type} ${c.id}`);
  const events = async () =>
    (await db.selectFrom('webhook_messages').select(['type', 'payload']).orderBy('id').execute()).map(
      (m) => `${m.type} ${(JSON.parse(m.payload) as { data: { id: number } }).data.id}`,
    );
  return { ...built, keyText: key, patch, get, rows, version, feedAt, events };
}

eachBackend('products batch update', (backend) => {
  test('changes only the fields sent, answers in request order, one version, entry and event per product', async (t) => {
    const s = await setup(t, backend);
    const before = await s.get('golf');
    const v = await s.version();
    const r = await s.patch([
      { handle: 'golf', price: 2600, name: 'Chef knife' },
      { id: 6, stock_quantity: 3 },
      { handle: 'charlie', in_stock: false }, // hidden: reachable
      { id: 1, price: 300 }, // its price already: unchanged
    ]);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.data.map((p: { id: number }) => p.id),
      [7, 6, 3, 1],
    );
    assert.equal(r.headers['storefront-version'], String(v + 1));
    assert.equal(r.headers['cache-control'], 'private, no-store');
    const [golf, foxtrot, charlie, alpha] = r.body.data;
    assert.deepEqual(
      { ...golf, name: before.name, price: before.price, updated_at: before.updated_at },
      before,
      'nothing else of golf changed',
    );
    assert.equal(golf.name, 'Chef knife');
    assert.deepEqual([foxtrot.stock_quantity, foxtrot.in_stock], [3, true]);
    assert.equal(charlie.in_stock, false);
    assert.deepEqual(await s.get(7), golf, 'the answer is what a GET now gives');
    // Unchanged: not written, its updated_at kept, no entry, no event.
    assert.equal(alpha.updated_at, 1000);
    assert.equal(await s.version(), v + 1);
    assert.deepEqual(await s.feedAt(v + 1), ['product 3', 'product 6', 'product 7']);
    assert.deepEqual((await s.events()).sort(), ['product.updated 3', 'product.updated 6', 'product.updated 7']);
    // The new name is what search sees.
    const found = await call(s.app, 'GET', `${P}/products/?search=chef`);
    assert.deepEqual(
      found.body.data.map((p: { id: number }) => p.id),
      [7],
    );
    // Two products renamed in one batch, each to the other's name: q and search follow both.
    const swap = await s.patch([
      { id: 1, name: 'Banana' },
      { id: 2, name: 'apple' },
    ]);
    assert.equal(swap.status, 200, swap.text);
    for (const [query, has, hasNot] of [
      ['q=banana', 1, 2],
      ['q=appel', 2, 1],
      ['search=anan', 1, 2],
      ['search=ppl', 2, 1],
    ] as const) {
      const ids = (await call(s.app, 'GET', `${P}/products/?${query}`)).body.data.map((p: { id: number }) => p.id);
      assert.ok(ids.includes(has) && !ids.includes(hasNot), `${query}: ${ids}`);
    }
    // Without the trailing slash too.
    const bare = await s.patch([{ id: 2, price: 150 }], {}, `${P}/products`);
    assert.equal(bare.status, 200);
    assert.equal(bare.body.data[0].price, 150);
  });

  test('all or nothing: every failing item is named by its place, and nothing is written', async (t) => {
    const s = await setup(t, backend);
    const [rows, v] = [await s.rows(), await s.version()];
    const r = await s.patch([
      { id: 1, price: 5 },
      { id: 2, price: -1 },
      { id: 4, in_stock: true }, // advanced
      { id: 5, name: '   ' },
      { id: 6, price: 12.34, description: 'x' },
      { id: 7, price: 9 },
    ]);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'invalid_request');
    const fields = r.body.error.details.map((d: { field: string }) => d.field).sort();
    assert.deepEqual(fields, ['products[1].price', 'products[3].name', 'products[4].description', 'products[4].price']);
    // The body's types are judged before any row is read; then the rules of the rows.
    const rules = await s.patch([
      { id: 1, price: 5 },
      { id: 4, in_stock: true }, // advanced
      { id: 2, stock_quantity: 3 }, // simple
      { id: 1e6, price: 5 },
    ]);
    assert.equal(rules.status, 400, 'a bad field outranks an unknown product');
    assert.deepEqual(
      rules.body.error.details.map((d: { field: string }) => d.field),
      ['products[1].in_stock', 'products[2].stock_quantity', 'products[3].id'],
    );
    assert.match(rules.body.error.message, /^3 of 4 products cannot be updated/);
    assert.deepEqual(await s.rows(), rows);
    assert.equal(await s.version(), v, 'a refused batch commits nothing, not even a version');
    assert.deepEqual(await s.events(), []);
  });

  test('404 names each unknown product; 409 names each stale if_match; any encoding of the current ETag applies', async (t) => {
    const s = await setup(t, backend);
    const missing = await s.patch([
      { id: 1, price: 5 },
      { id: 999, price: 5 },
      { handle: 'no-such', price: 5 },
    ]);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'not_found');
    assert.deepEqual(
      missing.body.error.details.map((d: { field: string }) => d.field),
      ['products[1].id', 'products[2].handle'],
    );
    const etag = async (id: number) =>
      String(
        (await call(s.app, 'GET', `${P}/products/${id}?fetch_hidden=true`, { headers: bearer(s.keyText) })).headers
          .etag,
      );
    const [e1, e2, e3] = [await etag(1), await etag(2), await etag(3)];
    const coded = (tag: string, coding: string) => `${tag.slice(0, -1)}-${coding}"`;
    assert.equal(
      (await call(s.app, 'POST', `${P}/products/2`, { headers: bearer(s.keyText), body: { price: 7 } })).status,
      200,
    );
    const stale = await s.patch([
      { id: 1, price: 11, if_match: e1 },
      { id: 2, price: 12, if_match: e2 },
      { id: 3, price: 13, if_match: `W/${e3}` }, // weak tags never match
    ]);
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error.code, 'conflict');
    assert.deepEqual(
      stale.body.error.details.map((d: { field: string }) => d.field),
      ['products[1].if_match', 'products[2].if_match'],
    );
    assert.equal((await s.get(1)).price, 300, 'nothing written');
    const ok = await s.patch([
      { id: 1, price: 11, if_match: coded(e1, 'br') },
      { id: 2, price: 12, if_match: await etag(2) },
      { id: 3, price: 13, if_match: coded(e3, 'gzip') },
      { id: 4, price: 14, if_match: '*' },
    ]);
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(
      ok.body.data.map((p: { price: number }) => p.price),
      [11, 12, 13, 14],
    );
    // The answer's products carry the state the next if_match must name.
    assert.equal(
      (await s.patch([{ id: 1, price: 15, if_match: await etag(1) }])).status,
      200,
      'the new ETag applies at once',
    );
  });

  test('the request itself: duplicates, id or handle, 1 to 1,000 items, known fields, 413 past 1 MiB', async (t) => {
    const s = await setup(t, backend);
    const cases: [unknown, number, string][] = [
      [
        [
          { id: 1, price: 1 },
          { id: 1, price: 2 },
        ],
        400,
        'products[1].id',
      ],
      [
        [
          { id: 1, price: 1 },
          { handle: 'alpha', name: 'A' },
        ],
        400,
        'products[1].handle',
      ],
      [[{ id: 1, handle: 'alpha', price: 1 }], 400, 'products[0].handle'],
      [[{ price: 1 }], 400, 'products[0].id'],
      [[{ id: 1 }], 400, 'products[0]'],
      [[{ id: 1, if_match: '*' }], 400, 'products[0]'],
      [[{ id: 1, price: 1, description: 'x' }], 400, 'products[0].description'],
      [[{ id: 0, price: 1 }], 400, 'products[0].id'],
      [[{ handle: '12', price: 1 }], 400, 'products[0].handle'],
      [[], 400, 'products'],
      [Array.from({ length: 1001 }, (_, i) => ({ id: i + 1, price: 1 })), 400, 'products'],
      ['all', 400, 'products'],
    ];
    for (const [products, status, field] of cases) {
      const r = await s.patch(products);
      assert.equal(r.status, status, JSON.stringify(products).slice(0, 80));
      assert.equal(r.body.error.details[0].field, field, JSON.stringify(products).slice(0, 80));
    }
    const v = await s.version();
    const extra = await call(s.app, 'PATCH', `${P}/products/`, {
      headers: bearer(s.keyText),
      body: { products: [{ id: 1, price: 1 }], dry_run: true },
    });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.error.details[0].field, 'dry_run');
    assert.equal(await s.version(), v);
    // 1,000 items fit, well past the 64 KiB of other bodies; past 1 MiB is a 413.
    const many = Array.from({ length: 1000 }, (_, i) => ({ id: 1000 + i, name: 'n'.repeat(100), price: 1 }));
    const big = await s.patch(many);
    assert.ok(JSON.stringify({ products: many }).length > 64 * 1024);
    assert.equal(big.status, 404, 'read in full: these products do not exist');
    assert.equal(big.body.error.more_details, 980);
    const huge = await s.patch(
      many.map((item) => ({ ...item, name: '\u00e9'.repeat(128), if_match: 'x'.repeat(1000) })),
    );
    assert.equal(huge.status, 413);
    assert.match(huge.body.error.message, /1 MiB/);
  });

  test("a simple product's stored stock is kept by other changes; stock-only batches keep the lists' totals", async (t) => {
    const s = await setup(t, backend);
    const post = (id: number, body: unknown) =>
      call(s.app, 'POST', `${P}/products/${id}`, { headers: bearer(s.keyText), body });
    assert.equal((await post(1, { inventory_type: 'advanced', stock_quantity: 9 })).status, 200);
    assert.equal((await post(1, { inventory_type: 'simple' })).status, 200);
    assert.equal((await s.patch([{ id: 1, price: 5, in_stock: false }])).status, 200);
    const advanced = await post(1, { inventory_type: 'advanced' });
    assert.deepEqual([advanced.body.price, advanced.body.stock_quantity], [5, 9]);

    const listsVersion = async () =>
      Number(
        (
          await s.storage.db
            .selectFrom('projects')
            .select('product_lists_version')
            .where('id', '=', SHOP)
            .executeTakeFirstOrThrow()
        ).product_lists_version,
      );
    const lists = await listsVersion();
    assert.equal(
      (
        await s.patch([
          { id: 6, stock_quantity: 1 },
          { id: 2, in_stock: false },
        ])
      ).status,
      200,
    );
    assert.equal(await listsVersion(), lists, 'stock alone moves no product in any list');
    assert.equal(
      (
        await s.patch([
          { id: 6, stock_quantity: 2 },
          { id: 2, price: 1 },
        ])
      ).status,
      200,
    );
    assert.notEqual(await listsVersion(), lists, 'a price does');
  });

  test('Idempotency-Key: a retry replays the answer without a second write; another body is 409', async (t) => {
    const s = await setup(t, backend);
    const body = [{ id: 5, price: 5 }];
    const first = await s.patch(body, { 'idempotency-key': 'batch-1' });
    assert.equal(first.status, 200);
    await call(s.app, 'POST', `${P}/products/5`, { headers: bearer(s.keyText), body: { price: 6 } });
    const v = await s.version();
    const again = await s.patch(body, { 'idempotency-key': 'batch-1' });
    assert.equal(again.status, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.text, first.text);
    assert.equal(await s.version(), v, 'no second write');
    assert.equal((await s.get(5)).price, 6);
    const other = await s.patch([{ id: 5, price: 7 }], { 'idempotency-key': 'batch-1' });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.details[0].field, 'Idempotency-Key');
  });

  test('keys and methods: 401 before anything, 403 without products:write, PATCH in Allow and the preflight', async (t) => {
    const s = await setup(t, backend);
    const url = `${P}/products/`;
    const send = (headers: Record<string, string>) =>
      call(s.app, 'PATCH', url, { headers, body: { products: [{ id: 1, price: -1 }] } });
    assert.equal((await send({})).status, 401);
    const reader = await s.key(SHOP, { scopes: ['products:read_hidden'] });
    const refused = await send(bearer(reader));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.details[0].message, 'requires products:write');
    const wrong = await call(s.app, 'PUT', url, { headers: bearer(s.keyText), body: {} });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.allow, 'GET, HEAD, PATCH, OPTIONS');
    const preflight = await call(s.app, 'OPTIONS', url, {
      headers: {
        origin: 'https://console.example',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-methods'], 'GET, HEAD, PATCH');
  });
});
