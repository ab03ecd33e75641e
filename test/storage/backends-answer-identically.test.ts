import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { ORDER_CLAUSES } from '../../src/resources/products/schemas.js';
import { MIXED_PRODUCT_COUNT, MIXED_PROJECT, mixedCatalog } from '../support/mixed-catalog.js';
import { PG_SKIP, openStorage } from '../support/storage.js';
import { suite } from '../support/suite.js';

// SQLite and PostgreSQL must be interchangeable: the same data and the same requests give
// byte-identical answers (status, body, ETag, caching headers) on both. The data is
// imported with fixed ids and times, and the requests walk every ordering, filter, search
// and page, including the characters where collations and LIKE usually part ways.

// Every single clause the API knows, then combinations of them.
const ORDERS = [
  ...ORDER_CLAUSES,
  'price_asc,name_asc',
  'price_desc,name_desc',
  'custom_desc,price_asc',
  'custom_asc,date_desc',
  'date_asc,name_desc',
  'name_asc,price_desc',
  'price_asc,custom_desc,name_asc',
  'name_desc,date_asc,price_asc',
  'custom_desc,custom_asc',
];
const SEARCHES = [
  '%',
  '_',
  '\\',
  '%_',
  '\\%',
  '50%',
  'a_b',
  '100%',
  'sku_',
  'sk\\',
  'apple',
  'APPLE',
  'äpfel',
  'ÄPFEL',
  'ss',
  'ß',
  'İ',
  'i̇',
  'ω',
  'Ω',
  'οδος',
  'ΟΔΟΣ',
  '🍎',
  '日本',
  'ǆ',
  'ﬁ',
  'k',
  'K',
  'ü',
  ' ',
  'e',
  'no such thing',
  '',
  'nul\u0000byte',
];

function products(query: Record<string, string>): string {
  return `/v2/projects/${MIXED_PROJECT}/products/?${new URLSearchParams(query)}`;
}

/** Every request of the comparison, with `key: true` where it carries the API key. */
function requests(): { url: string; key?: boolean; method?: 'GET' | 'HEAD' }[] {
  const base = `/v2/projects/${MIXED_PROJECT}`;
  const out: { url: string; key?: boolean; method?: 'GET' | 'HEAD' }[] = [];
  const pages = Math.ceil(MIXED_PRODUCT_COUNT / 7) + 1; // one page past the end
  for (const order of ORDERS) {
    out.push({ url: products({ order, perpage: '100' }) });
    for (let page = 1; page <= pages; page++) out.push({ url: products({ order, perpage: '7', page: String(page) }) });
    out.push({ url: products({ order, fetch_hidden: 'true', perpage: '100' }), key: true });
  }
  for (const search of SEARCHES) {
    out.push({ url: products({ search }) });
    out.push({ url: products({ search, order: 'name_asc', perpage: '3', page: '2' }) });
    out.push({ url: products({ search, fetch_hidden: 'true', order: 'price_desc,name_asc' }), key: true });
  }
  for (const category of ['1', '2', '3', '4', '5', '6', '999']) {
    out.push({ url: products({ category, order: 'name_asc' }) });
    out.push({ url: products({ category, search: 'e', order: 'custom_desc', perpage: '2', page: '2' }) });
  }
  for (const ids of ['1,2,3', '5,5,40,41', '10,20,30,1,2', '13']) {
    out.push({ url: products({ ids, order: 'name_desc' }) });
    out.push({ url: products({ ids, fetch_hidden: 'true' }), key: true });
  }
  out.push({ url: products({}) }, { url: products({ page: '3' }) }, { url: products({}), method: 'HEAD' });
  for (const ref of ['1', 'p-2', '5', 'p-5', '999', 'no-such']) {
    out.push({ url: `${base}/products/${ref}` }, { url: `${base}/products/${ref}?fetch_hidden=true`, key: true });
  }
  out.push(
    { url: `${base}/categories/` },
    { url: `${base}/categories/?root-category=1` },
    { url: `${base}/categories/?root-category=3` },
    { url: `${base}/categories/fruit` },
    { url: `${base}/categories/3` },
    { url: `${base}/categories/77` },
    { url: `${base}/plans/` },
    { url: `${base}/plans/3` },
    { url: `${base}/plans/9` },
  );
  // Users and orders lists (their filters included): newest first with created_at ties.
  for (const page of ['1', '2', '3']) {
    out.push(
      { url: `${base}/users/?perpage=10&page=${page}`, key: true },
      { url: `${base}/orders/?perpage=7&page=${page}`, key: true },
    );
  }
  out.push({ url: `${base}/users/7`, key: true }, { url: `${base}/orders/1004`, key: true });
  for (const filter of [
    'customer_email=ADA%40example.com',
    'customer_email=ada%40EXAMPLE.com&payment_status=paid',
    'payment_status=refunded',
    'fulfillment_status=ready_for_pickup',
    'is_canceled=true',
    'is_archived=false&is_canceled=false',
    `created_after=${1_780_000_000 + 300}&created_before=${1_780_000_000 + 800}`,
  ]) {
    out.push({ url: `${base}/orders/?${filter}&perpage=5`, key: true });
  }
  // Refusals are answers too: the same 400s and 404s, word for word.
  out.push(
    { url: products({ perpage: '0' }) },
    { url: products({ order: 'name_up' }) },
    { url: products({ ids: '' }) },
    { url: products({ page: '0' }) },
    { url: products({ colour: 'red' }) },
    { url: '/v2/projects/nobody/products/' },
    { url: products({ fetch_hidden: 'true' }) },
  );
  return out;
}

/** The mixed catalogue on SQLite and on PostgreSQL: an app and a key of the project on each, closed when `t` ends. */
async function mixedSides(t: TestContext) {
  return Promise.all(
    (['sqlite', 'postgres'] as const).map(async (backend) => {
      const storage = await openStorage(backend);
      t.after(() => storage.close());
      await importDocument(storage.db, mixedCatalog());
      const app = await buildApp({ storage });
      t.after(() => app.close());
      return { backend, app, key: (await createKey(storage, MIXED_PROJECT, 'compare')).key };
    }),
  );
}

suite('SQLite and PostgreSQL answer byte-identically', { skip: PG_SKIP }, () => {
  test('every ordering, filter, search and page, with ETags', async (t) => {
    const sides = await mixedSides(t);
    const list = requests();
    let compared = 0;
    let nonEmpty = 0;
    for (const r of list) {
      const [a, b] = await Promise.all(
        sides.map((s) =>
          s.app.inject({
            method: r.method ?? 'GET',
            url: r.url,
            headers: r.key ? { authorization: `Bearer ${s.key}` } : {},
          }),
        ),
      );
      const where = `${r.method ?? 'GET'} ${r.url}`;
      assert.equal(b.statusCode, a.statusCode, `status of ${where}`);
      assert.equal(b.body, a.body, `body of ${where}`);
      for (const h of ['etag', 'cache-control', 'content-type', 'content-length'])
        assert.equal(b.headers[h], a.headers[h], `${h} of ${where}`);
      if (a.statusCode === 200 && /"data":\[\{/.test(a.body)) nonEmpty++;
      if (/\/(users|orders)\//.test(r.url))
        assert.equal(a.statusCode, 200, `users and orders are compared for real: ${where}`);
      compared++;
    }
    // The comparison means something only if many answers hold data.
    assert.ok(nonEmpty > 150, `only ${nonEmpty} non-empty lists among ${compared} answers`);
    t.diagnostic(`${compared} requests, ${nonEmpty} non-empty lists, identical on both backends`);
  });

  test('updates answer alike too, and later reads see them alike', async (t) => {
    // The answer carries updated_at = now: both sides run at one fixed moment.
    t.mock.timers.enable({ apis: ['Date'], now: 1_790_000_000_000 });
    const sides = await mixedSides(t);
    const steps: { method: 'GET' | 'POST'; url: string; body?: unknown }[] = [
      { method: 'POST', url: '/products/p-3', body: { name: 'ÄÄ renamed 100%', price: 1 } },
      { method: 'POST', url: '/products/1', body: { inventory_type: 'advanced', stock_quantity: 0 } },
      { method: 'POST', url: '/products/2', body: { in_stock: false } },
      { method: 'POST', url: '/products/1', body: { in_stock: true } },
      { method: 'POST', url: '/products/5', body: { name: '   ' } },
      { method: 'GET', url: '/products/?order=name_asc,price_asc&perpage=100&search=%25' },
      { method: 'GET', url: '/products/?order=price_asc&perpage=5' },
      { method: 'GET', url: '/products/1' },
      { method: 'POST', url: '/products/6', body: { name: 'nul\u0000name' } },
      {
        method: 'POST',
        url: '/orders/1003',
        body: { payment_status: 'refunded', is_archived: 'true', delivery_information: 'Ünïcödé \\ 100%' },
      },
      { method: 'GET', url: '/orders/?payment_status=refunded&perpage=100' },
    ];
    for (const s of steps) {
      const [a, b] = await Promise.all(
        sides.map((side) =>
          side.app.inject({
            method: s.method,
            url: `/v2/projects/${MIXED_PROJECT}${s.url}`,
            headers: { authorization: `Bearer ${side.key}` },
            ...(s.body ? { payload: s.body } : {}),
          }),
        ),
      );
      assert.equal(b.statusCode, a.statusCode, `status of ${s.method} ${s.url}`);
      assert.equal(b.body, a.body, `body of ${s.method} ${s.url}`);
      assert.equal(b.headers.etag, a.headers.etag, `etag of ${s.method} ${s.url}`);
    }
  });

  test('imports that one backend could not store are refused by both, with the same problems', async (t) => {
    const bad = {
      project: { id: 'edge', name: 'Edge', currency: 'USD' },
      products: [
        { id: 1, handle: 'nul', name: 'a\u0000b', price: 1 },
        { id: 2, handle: 'far-future', name: 'Far', price: 1, created_at: 1e20 },
        { id: 3, handle: 'ok', name: 'Fine', price: 1, custom_sort: 2 ** 40 },
      ],
      orders: [{ id: 1, customer_email: 'a@example.com', created_at: -1e19 }],
    };
    const outcomes = await Promise.all(
      (['sqlite', 'postgres'] as const).map(async (backend) => {
        const storage = await openStorage(backend);
        t.after(() => storage.close());
        const error = await importDocument(storage.db, bad).then(
          () => undefined,
          (e: Error & { problems?: string[] }) => e,
        );
        const stored = await storage.db.selectFrom('products').select('id').execute();
        return { problems: error?.problems, stored: stored.length };
      }),
    );
    assert.deepEqual(outcomes[1], outcomes[0]);
    assert.deepEqual(
      outcomes[0].problems?.map((p) => p.split(':')[0]),
      ['products[0]', 'products[1].created_at', 'products[2].custom_sort', 'orders[0].created_at'],
    );
    assert.equal(outcomes[0].stored, 0);
  });
});
