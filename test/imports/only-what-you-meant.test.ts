import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachBackend } from '../support/each-backend.js';
import { SHOP } from '../support/shop.js';
import { type ImportApp, SHOP_LINE, importApp, ndjson } from './support.js';

// Only what you meant (docs/API.md, "What a CSV changes", "What an import reports"): a CSV
// changes only its columns, found by id or handle; a record equal to the stored one is not
// written; a changed one gets the import's time; the Import reports its changes and the
// values a spreadsheet seems to have damaged; CSV exports carry a byte order mark and take
// `;`, which an import reads back.

const T0 = 1_700_000_000;
const PRODUCTS = [
  {
    type: 'product',
    id: 501,
    handle: 'p-501',
    name: 'Crème brûlée',
    sku: '00123',
    price: 1000,
    inventory_type: 'advanced',
    in_stock: false,
    stock_quantity: 20,
    category_ids: [1],
    images: [{ url: 'https://img.example/a.jpg', alt: 'A' }],
    created_at: T0,
    updated_at: T0,
  },
  {
    type: 'product',
    id: 502,
    handle: 'p-502',
    name: 'Plain',
    sku: '1,000',
    price: 2000,
    stock_quantity: 7,
    created_at: T0,
    updated_at: T0,
  },
  { type: 'product', id: 503, handle: 'p-503', name: 'Third', sku: '3/4', price: 3000, created_at: T0, updated_at: T0 },
];

interface Import {
  status: string;
  counts: Record<string, { upserted: number; deleted: number }>;
  changes: Record<
    string,
    { created: number; updated: number; unchanged: number; deleted: number; fields: Record<string, number> }
  >;
  errors: { place: string; message: string }[];
  warnings: { place: string; field: string; message: string }[];
  warnings_total: number;
  cursor_before: string | null;
}

async function imported(shop: ImportApp, body: string, type: string, query = ''): Promise<Import> {
  const answer = await shop.upload(body, { type, query });
  assert.equal(answer.status, 202, answer.text);
  return (await shop.finished((answer.body as { id: number }).id)).body as Import;
}

const csv =
  (body: string, query = '') =>
  (shop: ImportApp) =>
    imported(shop, body, 'text/csv', query);

async function shopWithProducts(t: Parameters<typeof importApp>[0], backend: Parameters<typeof importApp>[1]) {
  const shop = await importApp(t, backend);
  const done = await imported(shop, ndjson(SHOP_LINE, ...PRODUCTS), 'application/x-ndjson');
  assert.equal(done.status, 'succeeded', JSON.stringify(done.errors));
  return shop;
}

async function product(shop: ImportApp, id: number) {
  return (await shop.send('GET', `/products/${id}?fetch_hidden=true`)).body as Record<string, unknown>;
}

async function storedStock(shop: ImportApp, id: number) {
  return shop.storage.db
    .selectFrom('products')
    .select(['inventory_type', 'in_stock', 'stock_quantity'])
    .where('project_id', '=', SHOP)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

eachBackend('only what you meant', (backend) => {
  test('a CSV of id and price changes the price and updated_at, and nothing else', async (t) => {
    const shop = await shopWithProducts(t, backend);
    const before = await product(shop, 501);
    const started = Math.floor(Date.now() / 1000);
    const done = await csv('id,price\r\n501,1100\r\n')(shop);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.errors));
    assert.deepEqual(done.changes.products, { created: 0, updated: 1, unchanged: 0, deleted: 0, fields: { price: 1 } });
    assert.equal(done.counts.products.upserted, 1);
    const after = await product(shop, 501);
    assert.ok((after.updated_at as number) >= started, 'updated_at is the import time');
    assert.deepEqual(after, { ...before, price: 1100, updated_at: after.updated_at });
    assert.deepEqual(await storedStock(shop, 501), { inventory_type: 'advanced', in_stock: 0, stock_quantity: 20 });

    // Without an id, the handle finds the product; a simple product's kept count stays.
    const byHandle = await csv('handle,price\r\np-502,2100\r\n')(shop);
    assert.equal(byHandle.status, 'succeeded', JSON.stringify(byHandle.errors));
    assert.equal((await product(shop, 502)).price, 2100);
    assert.deepEqual(await storedStock(shop, 502), { inventory_type: 'simple', in_stock: 1, stock_quantity: 7 });
  });

  test("a blank cell sets the default; a new product without a name is its row's error", async (t) => {
    const shop = await shopWithProducts(t, backend);
    const blank = await csv('id,sku\r\n503,\r\n')(shop);
    assert.equal(blank.status, 'succeeded', JSON.stringify(blank.errors));
    assert.equal((await product(shop, 503)).sku, null);
    const nameless = await csv('handle,price\r\nnew-one,100\r\n')(shop);
    assert.equal(nameless.status, 'failed');
    assert.deepEqual(nameless.errors, [{ place: 'row 2', message: 'name is required' }]);
    const created = await csv('handle,name,price\r\nnew-one,New one,100\r\n')(shop);
    assert.equal(created.status, 'succeeded', JSON.stringify(created.errors));
    assert.equal(created.changes.products.created, 1);
  });

  test('stock cells follow the inventory type, as the single update', async (t) => {
    const shop = await shopWithProducts(t, backend);
    const advanced = await csv('id,stock_quantity\r\n501,5\r\n')(shop);
    assert.equal(advanced.status, 'succeeded', JSON.stringify(advanced.errors));
    assert.deepEqual(await storedStock(shop, 501), { inventory_type: 'advanced', in_stock: 0, stock_quantity: 5 });
    const simple = await csv('id,stock_quantity\r\n502,3\r\n')(shop);
    assert.equal(simple.status, 'failed');
    assert.equal(simple.errors[0].place, 'row 2');
    assert.match(simple.errors[0].message, /^stock_quantity applies to advanced products only/);
    const kept = await csv('id,in_stock,stock_quantity\r\n502,true,\r\n501,true,5\r\n')(shop);
    assert.equal(kept.status, 'succeeded', JSON.stringify(kept.errors));
    assert.deepEqual(kept.changes.products, { created: 0, updated: 0, unchanged: 2, deleted: 0, fields: {} });
  });

  test('mode=replace replaces whole records, and needs handle, name and price', async (t) => {
    const shop = await shopWithProducts(t, backend);
    const refused = await shop.upload('id,price\r\n501,1\r\n', { type: 'text/csv', query: '?mode=replace' });
    assert.equal(refused.status, 400);
    const bad = await shop.upload('id,price\r\n501,1\r\n', { type: 'text/csv', query: '?mode=merge-all' });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /mode/);
    const done = await csv('id,handle,name,price\r\n501,p-501,Crème brûlée,1000\r\n', '?mode=replace')(shop);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.errors));
    const after = await product(shop, 501);
    assert.equal(after.sku, null);
    assert.deepEqual(after.category_ids, []);
    assert.deepEqual(await storedStock(shop, 501), { inventory_type: 'simple', in_stock: 1, stock_quantity: 0 });
  });

  test('a record equal to the stored one is not written: no feed entry, no event', async (t) => {
    const shop = await shopWithProducts(t, backend);
    const events = () =>
      shop.storage.db
        .selectFrom('webhook_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('type', '=', 'product.updated')
        .executeTakeFirstOrThrow();
    const eventsBefore = await events();
    const again = await imported(shop, ndjson(SHOP_LINE, ...PRODUCTS), 'application/x-ndjson');
    assert.equal(again.status, 'succeeded', JSON.stringify(again.errors));
    assert.deepEqual(again.changes.products, { created: 0, updated: 0, unchanged: 3, deleted: 0, fields: {} });
    assert.equal(again.counts.products.upserted, 0);
    const feed = await shop.send('GET', `/changes/?since=${again.cursor_before}`);
    assert.deepEqual((feed.body as { data: unknown[] }).data, []);
    assert.deepEqual(await events(), eventsBefore);
    assert.equal((await product(shop, 501)).updated_at, T0);
  });

  test('the warnings name what a spreadsheet damaged, and never stop the import', async (t) => {
    const shop = await shopWithProducts(t, backend);
    const saved = 'id,name,sku\r\n501,CrÃ¨me brÃ»lÃ©e,123\r\n502,Plain,1000\r\n503,Third,03/04/2026\r\n';
    const dry = await csv(saved, '?dry_run=true')(shop);
    assert.equal(dry.status, 'succeeded', JSON.stringify(dry.errors));
    assert.deepEqual(dry.changes.products.fields, { name: 1, sku: 3 });
    assert.deepEqual(
      dry.warnings.map((w) => [w.place, w.field]),
      [
        ['row 2', 'name'],
        ['row 2', 'sku'],
        ['row 3', 'sku'],
        ['row 4', 'sku'],
      ],
    );
    assert.equal(dry.warnings_total, 4);
    assert.match(dry.warnings[0].message, /mis-decoded/);
    assert.match(dry.warnings[1].message, /leading zeros/);
    assert.match(dry.warnings[2].message, /thousands separator/);
    assert.match(dry.warnings[3].message, /date/);
    assert.equal((await product(shop, 501)).sku, '00123', 'a dry run writes nothing');
  });

  test('a CSV export starts with a byte order mark, takes `;`, and imports back unchanged', async (t) => {
    const shop = await shopWithProducts(t, backend);
    const exported = async (query: string) =>
      (await shop.send('GET', `/exports/products.csv?fetch_hidden=true${query}`)).text;
    const plain = await exported('');
    assert.ok(plain.startsWith('\ufeffid,handle,name,'), plain.slice(0, 20));
    assert.equal(await exported('&bom=false'), plain.slice(1));
    const semicolons = await exported('&delimiter=semicolon');
    assert.ok(semicolons.startsWith('\ufeffid;handle;name;'));
    assert.match(semicolons, /;1,000;/);
    assert.match(semicolons, /;"1;3";/, 'a cell holding `;` is quoted');
    assert.equal((await shop.send('GET', '/exports/products.csv?delimiter=tab')).status, 400);
    assert.ok((await shop.send('GET', '/exports/orders.csv?bom=false')).text.startsWith('id,customer_email,'));
    for (const file of [plain, semicolons]) {
      const back = await csv(file)(shop);
      assert.equal(back.status, 'succeeded', JSON.stringify(back.errors));
      assert.equal(back.changes.products.updated, 0);
      assert.equal(back.warnings_total, 0);
    }
  });
});
