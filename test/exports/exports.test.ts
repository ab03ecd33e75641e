import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ordersCsv, productsCsv } from '../../src/export/csv.js';
import { exportProject } from '../../src/export/export.js';
import { orderCells } from '../../src/resources/orders/csv-columns.js';
import { PRODUCT_CSV_COLUMNS, productCells } from '../../src/resources/products/csv-columns.js';
import { productExportOf } from '../../src/resources/products/routes.js';
import { findCandidates } from '../../src/resources/products/search/list.js';
import { eachBackend } from '../support/each-backend.js';
import type { TestApp } from '../support/app.js';
import { importApp } from '../imports/support.js';
import { bearer, call } from '../support/request.js';
import { SHOP } from '../support/shop.js';
import { FORMULA_NAME, csvRows, seedMany } from './support.js';

// Exports (docs/API.md, "Exports"): each equals its list with the same filters and order, all
// pages concatenated, whatever the keyset page size; the project export is the CLI's bytes
// and imports again; scopes; headers; the formula prefix.

type Row = { id: number } & Record<string, unknown>;

/** The shop with many products, served with the import runner (an export imports again). */
async function shopApp(t: Parameters<typeof importApp>[0], backend: Parameters<typeof importApp>[1]) {
  const shop = await importApp(t, backend);
  await seedMany(shop.storage);
  return shop;
}

/** Every page of a list, concatenated. */
async function wholeList(shop: TestApp & { shopKey: string }, path: string, query: string): Promise<Row[]> {
  const out: Row[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(shop.app, 'GET', `/v2/projects/${SHOP}${path}?perpage=7&page=${page}&${query}`, {
      headers: bearer(shop.shopKey),
    });
    assert.equal(answer.status, 200, answer.text);
    const data = (answer.body as { data: Row[] }).data;
    if (data.length === 0) return out;
    out.push(...data);
  }
}

async function collect(run: (emit: (text: string) => Promise<void>) => Promise<void>): Promise<string> {
  let text = '';
  await run(async (chunk) => {
    text += chunk;
  });
  return text;
}

const PRODUCT_QUERIES = [
  '',
  'fetch_hidden=true',
  'order=price_asc',
  'order=name_asc,custom_desc&fetch_hidden=true',
  'order=custom_asc,price_desc,date_asc',
  'order=date_asc',
  'category=1&order=price_desc',
  'search=mug&order=name_desc',
  'ids=100,101,102,103,199&order=custom_asc&fetch_hidden=true',
  'category=999',
  // Shopper search (CONTRACT 17): the export takes the list's filters and order, relevance too.
  'q=mug 3',
  'q=mu&order=relevance,price_asc&fetch_hidden=true',
  'price_min=100&price_max=200&in_stock=true',
  'categories=1&inventory_type=simple&order=price_asc',
  'q=m&categories=1,3',
];

/** A products list query as its schema types it. */
function typed(query: string): Parameters<typeof productExportOf>[1] {
  const numbers = new Set(['category', 'price_min', 'price_max']);
  const booleans = new Set(['fetch_hidden', 'in_stock']);
  return Object.fromEntries(
    [...new URLSearchParams(query)].map(([k, v]) => [
      k,
      numbers.has(k) ? Number(v) : booleans.has(k) ? v === 'true' : v,
    ]),
  );
}

const ORDER_QUERIES = [
  '',
  'payment_status=paid',
  'customer_email=ADA@example.com',
  'created_after=1500&is_archived=false',
];

eachBackend('exports', (backend) => {
  test('products.csv holds the list with the same filters and order, every page, and is an attachment', async (t) => {
    const shop = await shopApp(t, backend);
    for (const query of PRODUCT_QUERIES) {
      const list = await wholeList(shop, '/products/', query);
      if (/^(q|price_min|categories)=/.test(query)) assert.ok(list.length > 0, `${query} matches some`);
      const answer = await call(shop.app, 'GET', `/v2/projects/${SHOP}/exports/products.csv?${query}`, {
        headers: bearer(shop.shopKey),
      });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(answer.headers['content-disposition'], `attachment; filename="${SHOP}-products.csv"`);
      const [header, ...rows] = csvRows(answer.text);
      assert.deepEqual(header, [...PRODUCT_CSV_COLUMNS]);
      assert.deepEqual(
        rows,
        list.map((p) => productCells(p as never)),
        query,
      );
      assert.match(answer.text, /\r\n$/, 'RFC 4180 line ends');
      // Keyset pages of 3 rows (every boundary inside a group of ties) give the same rows.
      const { filter, order } = productExportOf(SHOP, typed(query));
      const project = await shop.storage.db
        .selectFrom('projects')
        .selectAll()
        .where('id', '=', SHOP)
        .executeTakeFirstOrThrow();
      if (filter.shop) await findCandidates(shop.storage.reads, project, filter.shop);
      const small = await collect((emit) =>
        shop.storage.reads.longSnapshot((db) => productsCsv(db, filter, order, 'EUR', emit, 3)),
      );
      assert.equal(`\ufeff${small}`, answer.text, query);
    }
  });

  test('orders.csv holds the list with the same filters, newest first, items and ISO times', async (t) => {
    const shop = await shopApp(t, backend);
    for (const query of ORDER_QUERIES) {
      const list = await wholeList(shop, '/orders/', query);
      const answer = await call(shop.app, 'GET', `/v2/projects/${SHOP}/exports/orders.csv?${query}`, {
        headers: bearer(shop.shopKey),
      });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.headers['content-disposition'], `attachment; filename="${SHOP}-orders.csv"`);
      const [, ...rows] = csvRows(answer.text);
      assert.deepEqual(
        rows,
        list.map((o) => orderCells(o as never)),
        query,
      );
      const small = await collect((emit) =>
        shop.storage.reads.longSnapshot((db) =>
          ordersCsv(
            db,
            {
              projectId: SHOP,
              paymentStatus: (new URLSearchParams(query).get('payment_status') ?? undefined) as never,
              customerEmail: new URLSearchParams(query).get('customer_email') ?? undefined,
              createdAfter: query.includes('created_after') ? 1500 : undefined,
              isArchived: query.includes('is_archived') ? false : undefined,
            },
            emit,
            2,
          ),
        ),
      );
      assert.equal(`\ufeff${small}`, answer.text, query);
    }
    const all = csvRows(
      (await call(shop.app, 'GET', `/v2/projects/${SHOP}/exports/orders.csv`, { headers: bearer(shop.shopKey) })).text,
    );
    const first = all.find((r) => r[0] === '1')!;
    assert.equal(first[3], '2 × Knife; 1 × A removed scarf');
    assert.match(first[11], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('a cell beginning with a formula character is written with a quote before it', async (t) => {
    const shop = await shopApp(t, backend);
    const answer = await call(shop.app, 'GET', `/v2/projects/${SHOP}/exports/products.csv?ids=199`, {
      headers: bearer(shop.shopKey),
    });
    const [header, row] = csvRows(answer.text);
    const cell = (name: string) => row[header.indexOf(name)];
    assert.equal(cell('name'), `'${FORMULA_NAME}`);
    assert.equal(cell('sku'), "'+1-555");
    assert.equal(cell('custom_sort'), "'-7", 'a negative number too (docs/API.md)');
    assert.equal(cell('handle'), 'formula');
  });

  test('project.ndjson is the CLI export byte for byte, and imports again', async (t) => {
    const shop = await shopApp(t, backend);
    const answer = await call(shop.app, 'GET', `/v2/projects/${SHOP}/exports/project.ndjson`, {
      headers: bearer(shop.shopKey),
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/x-ndjson');
    assert.equal(answer.headers['content-disposition'], `attachment; filename="${SHOP}.ndjson"`);
    const cli = await collect((emit) => exportProject(shop.storage.db, SHOP, emit, 'ndjson'));
    assert.equal(answer.text, cli);
    const lines = answer.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    assert.equal(lines[0].type, 'project');
    assert.ok(lines.some((l) => l.type === 'order') && lines.some((l) => l.type === 'user'));
    // The JSON form holds the same records.
    const json = JSON.parse(await collect((emit) => exportProject(shop.storage.db, SHOP, emit, 'json'))) as Record<
      string,
      unknown[]
    >;
    assert.equal(
      lines.length,
      1 +
        Object.entries(json)
          .filter(([k]) => k !== 'project')
          .reduce((n, [, v]) => n + v.length, 0),
    );
    // Imported again as it is: nothing changes but the import's own marks.
    const upload = await call(shop.app, 'POST', `/v2/projects/${SHOP}/imports/`, {
      raw: answer.text,
      headers: { ...bearer(shop.shopKey), 'content-type': 'application/x-ndjson', prefer: 'wait=30' },
    });
    assert.equal(upload.status, 200, upload.text);
    assert.equal((upload.body as { status: string }).status, 'succeeded', upload.text);
    const again = await call(shop.app, 'GET', `/v2/projects/${SHOP}/exports/project.ndjson`, {
      headers: bearer(shop.shopKey),
    });
    assert.equal(again.text, answer.text);
  });

  test('scopes: any key; fetch_hidden needs products:read_hidden; orders:read; the project needs every read scope', async (t) => {
    const shop = await shopApp(t, backend);
    const get = async (path: string, key?: string) =>
      (await call(shop.app, 'GET', `/v2/projects/${SHOP}/exports/${path}`, { headers: key ? bearer(key) : {} })).status;
    const writer = await shop.key(SHOP, { scopes: ['products:write'] });
    const reader = await shop.key(SHOP, { scopes: ['orders:read', 'products:read_hidden'] });
    assert.equal(await get('products.csv'), 401);
    assert.equal(await get('products.csv', writer), 200);
    assert.equal(await get('products.csv?fetch_hidden=true', writer), 403);
    assert.equal(await get('products.csv?fetch_hidden=true', reader), 200);
    assert.equal(await get('orders.csv', writer), 403);
    assert.equal(await get('orders.csv', reader), 200);
    assert.equal(await get('project.ndjson', reader), 403);
    assert.equal(await get('project.ndjson', shop.shopKey), 200);
    assert.equal(await get('products.csv?page=2', shop.shopKey), 400);
    assert.equal(await get('products.csv?order=nope', shop.shopKey), 400);
  });
});
