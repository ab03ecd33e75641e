import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Vocabulary } from '../../src/resources/products/search/vocabulary.js';
import { chosenRanges } from '../../src/resources/products/search/price-ranges.js';
import { queryWords } from '../../src/resources/products/search/words.js';
import { eachBackend } from '../support/each-backend.js';
import { type TestApp, testApp } from '../support/app.js';
import { call } from '../support/request.js';
import { CATEGORIES, POOL, importCatalog, randomCatalog, rng } from './search/catalog.js';
import { type RefQuery, expected } from './search/reference.js';

// Shopper search (CONTRACT 17): `q` with typos by length, prefixes and folding, relevance,
// the filters and the facets, checked against a brute-force model (search/reference.ts) over
// random catalogs on both backends, and kept exact by every write.

const vocabulary = (...words: string[]) => {
  const v = new Vocabulary();
  for (const w of words) v.add(w);
  return v;
};
const matched = (v: Vocabulary, q: string, prefix = false) => Object.fromEntries(v.match(q, prefix));

test('typos by length: 4 exact, 5 to 8 one edit, 9 and more two; a swap is one edit', () => {
  const v = vocabulary('lamp', 'lamb', 'shirt', 'shrit', 'linen', 'kettles', 'oxfordian', 'oxfordxan', 'porcelain');
  assert.deepEqual(matched(v, 'lamp'), { lamp: 0 });
  assert.deepEqual(matched(v, 'lamb'), { lamb: 0 });
  assert.deepEqual(matched(v, 'shirt'), { shirt: 0, shrit: 2 }); // 5: one edit, a swap
  assert.deepEqual(matched(v, 'shrt'), {}); // 4 characters: exact only
  assert.deepEqual(matched(v, 'kettlez'), { kettles: 2 }); // 7 → one edit
  assert.deepEqual(matched(v, 'kettlezz'), {}); // 8 characters, two edits from kettles
  assert.deepEqual(matched(v, 'oxfordixn'), { oxfordian: 2, oxfordxan: 3 }); // 9: two edits
  assert.deepEqual(matched(v, 'procelian'), { porcelain: 3 }); // two swaps
  assert.deepEqual(matched(v, 'prcelan'), {}); // 7: one edit allowed, two needed
});

test('the last word is also a prefix, with a typo from 5 characters', () => {
  const v = vocabulary('lamp', 'lampshade', 'lamb', 'chocolate', 'chocolates');
  assert.deepEqual(matched(v, 'lam', true), { lamp: 1, lampshade: 1, lamb: 1 });
  assert.deepEqual(matched(v, 'lamp', true), { lamp: 0, lampshade: 1 });
  assert.deepEqual(matched(v, 'lmap', true), {}); // 4 characters: no typo
  assert.deepEqual(matched(v, 'chcoo', true), { chocolate: 2, chocolates: 2 }); // 5: a swapped prefix
  assert.deepEqual(matched(v, 'lam'), {});
});

test('query words: case folded, diacritics stripped, punctuation splits', () => {
  assert.deepEqual(queryWords('  Café ÉTÉ, straße!'), ['cafe', 'ete', 'strasse']);
  assert.deepEqual(queryWords(' -- !! '), []);
  assert.deepEqual(queryWords('LS-01'), ['ls', '01']);
});

test('chosen price ranges: five round ranges holding min to max', () => {
  for (const [min, max] of [
    [0, 0],
    [300, 4900],
    [999, 1001],
    [0, 123_456],
    [5000, 5000],
  ]) {
    const ranges = chosenRanges(min, max);
    assert.equal(ranges.length, 5);
    const width = ranges[0].to! - ranges[0].from!;
    assert.match(String(width), /^[125]0*$/);
    assert.ok(ranges[0].from! <= min && ranges[4].to! > max, `${min}-${max}`);
    assert.ok(width * 20 >= max, `${min}-${max}: no range narrower than a twentieth of the highest price`);
  }
  // One price for every match: ranges of round amounts around it, not one cent wide.
  assert.deepEqual(chosenRanges(4900, 4900)[0], { from: 4500, to: 5000 });
  assert.deepEqual(chosenRanges(1000, 1040)[0], { from: 1000, to: 1100 });
});

/** A random request made from the catalog's words, with 0 to 2 typos, filters and facets. */
function randomQuery(r: () => number): RefQuery {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const typo = (w: string) => {
    const c = [...w];
    const i = Math.floor(r() * c.length);
    const kind = Math.floor(r() * 4);
    if (kind === 0 && i + 1 < c.length) [c[i], c[i + 1]] = [c[i + 1], c[i]];
    else if (kind === 1) c.splice(i, 1);
    else if (kind === 2) c.splice(i, 0, 'x');
    else c[i] = 'q';
    return c.join('');
  };
  const words = Array.from({ length: Math.floor(r() * 3) + 1 }, () => {
    const w = pick(POOL);
    return r() < 0.3 ? typo(w) : r() < 0.2 ? w.slice(0, Math.max(1, w.length - 2)) : w;
  });
  const q: RefQuery = r() < 0.85 ? { q: words.join(r() < 0.5 ? ' ' : ', ') } : {};
  if (r() < 0.3) q.price_min = Math.floor(r() * 10) * 250;
  if (r() < 0.3) q.price_max = (q.price_min ?? 0) + Math.floor(r() * 10) * 250;
  if (r() < 0.3) q.in_stock = r() < 0.5;
  if (r() < 0.2) q.inventory_type = r() < 0.5 ? 'simple' : 'advanced';
  if (r() < 0.3) q.categories = [pick(CATEGORIES).id, pick(CATEGORIES).id];
  if (r() < 0.2) q.order = r() < 0.5 ? 'price_asc' : 'name_asc';
  if (r() < 0.6) q.facets = ['category', 'price', 'in_stock', 'inventory_type'].filter(() => r() < 0.6);
  if (q.facets?.includes('price') && r() < 0.5)
    q.price_ranges = [
      [null, 1000],
      [1000, 2500],
      [2500, null],
    ];
  return q;
}

function urlOf(q: RefQuery, paging = { perpage: 100, page: 1 }): string {
  const p = new URLSearchParams({ perpage: String(paging.perpage), page: String(paging.page) });
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    if (k === 'price_ranges')
      p.set(k, (v as [number | null, number | null][]).map(([a, b]) => `${a ?? ''}-${b ?? ''}`).join(','));
    else p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return `/v2/projects/search/products/?${p}`;
}

async function searchApp(t: Parameters<typeof testApp>[0], backend: Parameters<typeof testApp>[1], seed: number) {
  const shop = await testApp(t, backend);
  const products = randomCatalog(seed, 80);
  await importCatalog(shop.storage, products);
  return { shop, products };
}

async function checkAgainstModel(
  shop: TestApp,
  products: ReturnType<typeof randomCatalog>,
  q: RefQuery,
  paging = { perpage: 100, page: 1 },
) {
  const url = urlOf(q, paging);
  const answer = await call(shop.app, 'GET', url);
  assert.equal(answer.status, 200, `${url}: ${JSON.stringify(answer.body)}`);
  const want = expected(products, CATEGORIES, q);
  const body = answer.body as { data: { id: number }[]; meta: { total: number; facets?: Record<string, any> } };
  assert.deepEqual(
    body.data.map((p) => p.id),
    want.ids.slice((paging.page - 1) * paging.perpage, paging.page * paging.perpage),
    url,
  );
  assert.equal(body.meta.total, want.ids.length, url);
  for (const [name, facet] of Object.entries(want.facets)) {
    const got = body.meta.facets?.[name];
    if (name === 'price' && !q.price_ranges) {
      const f = facet as { min: number | null; max: number | null };
      assert.deepEqual([got.min, got.max], [f.min, f.max], `${url}: price bounds`);
      continue;
    }
    assert.deepEqual(got, facet, `${url}: facet ${name}`);
  }
}

eachBackend('shopper search', (backend) => {
  test('random catalogs and requests: ids, order, totals and facets as the brute-force model says', async (t) => {
    for (const seed of [1, 2]) {
      const { shop, products } = await searchApp(t, backend, seed);
      const r = rng(seed * 7919);
      for (let i = 0; i < 60; i++) await checkAgainstModel(shop, products, randomQuery(r));
    }
  });

  test('pages: a later page and a page past the end give the model slice and the exact total', async (t) => {
    const { shop, products } = await searchApp(t, backend, 4);
    const r = rng(4 * 7919);
    for (let i = 0; i < 20; i++) {
      const q = randomQuery(r);
      await checkAgainstModel(shop, products, q, { perpage: 3, page: 2 });
      await checkAgainstModel(shop, products, q, { perpage: 5, page: 40 });
    }
  });

  test('never stale: a rename, a stock update and a deletion show at once in q, filters and facets', async (t) => {
    const { shop, products } = await searchApp(t, backend, 3);
    const key = await shop.key('search');
    const auth = { headers: { authorization: `Bearer ${key}` } };
    const probe = (q: RefQuery) => checkAgainstModel(shop, products, q);
    const asked: RefQuery[] = [
      { q: 'zebra' },
      { in_stock: true, facets: ['in_stock', 'inventory_type', 'category'] },
      { in_stock: false },
      { inventory_type: 'advanced', facets: ['in_stock'] },
      {
        q: 'shirt',
        facets: ['in_stock', 'price'],
        price_ranges: [
          [null, 2000],
          [2000, null],
        ],
      },
    ];
    for (const q of asked) await probe(q); // cached now
    const target = products.find((p) => p.show_in_store)!;
    assert.equal(
      (
        await call(shop.app, 'POST', `/v2/projects/search/products/${target.id}`, {
          ...auth,
          body: { name: 'Zebra shirt' },
        })
      ).status,
      200,
    );
    target.name = 'Zebra shirt';
    for (const q of asked) await probe(q);
    // A stock-only update leaves the lists' version: lists by stock must still follow it.
    const advanced = products.find((p) => p.show_in_store && p.inventory_type === 'advanced')!;
    advanced.stock_quantity = advanced.stock_quantity > 0 ? 0 : 5;
    const body = { stock_quantity: advanced.stock_quantity };
    assert.equal(
      (await call(shop.app, 'POST', `/v2/projects/search/products/${advanced.id}`, { ...auth, body })).status,
      200,
    );
    for (const q of asked) await probe(q);
    const simple = products.find((p) => p.show_in_store && p.inventory_type === 'simple')!;
    simple.inventory_type = 'advanced';
    simple.stock_quantity = 0;
    const change = { inventory_type: 'advanced' };
    assert.equal(
      (await call(shop.app, 'POST', `/v2/projects/search/products/${simple.id}`, { ...auth, body: change })).status,
      200,
    );
    for (const q of asked) await probe(q);
    // An import that rewrites and one that deletes.
    await importCatalog(
      shop.storage,
      products.map((p) => (p.id === 2 ? { ...p, name: 'zebra lamp' } : p)),
    );
    products[1].name = 'zebra lamp';
    for (const q of asked) await probe(q);
    const { writeProject } = await import('../../src/writes/write-project.js');
    const { deleteRecords } = await import('../../src/writes/delete-records.js');
    const { resourceOf } = await import('../../src/resources/registry.js');
    await writeProject(shop.storage, 'search', (ctx) => deleteRecords(ctx, resourceOf('products'), [target.id, 2]), {
      kind: 'batch',
    });
    products.splice(0, products.length, ...products.filter((p) => p.id !== target.id && p.id !== 2));
    for (const q of asked) await probe(q);
  });

  test('migration 018 indexes the products stored before it', async (t) => {
    const { shop, products } = await searchApp(t, backend, 4);
    await shop.storage.db.deleteFrom('search_postings').execute();
    await shop.storage.db.deleteFrom('search_words').execute();
    const { down, up } = await import('../../src/db/migrations/018-search-words.js');
    await down(shop.storage.db);
    await up(shop.storage.db);
    // A migration runs before any server does: the answers cached so far are let go.
    await shop.storage.db
      .updateTable('projects')
      .set((eb) => ({ data_version: eb('data_version', '+', 1), products_version: eb('data_version', '+', 1) }))
      .execute();
    const fresh = await testApp(t, backend, { storage: shop.storage });
    for (const q of ['shirt', 'lampshde', 'cafe ete', 'choc']) await checkAgainstModel(fresh, products, { q });
  });

  test('relevance: exact before typos before prefixes in the description, ties newest first', async (t) => {
    const shop = await testApp(t, backend);
    await importCatalog(shop.storage, [
      row(1, 'Linen shirt', '', 1000),
      row(2, 'Linen shrit', '', 1000),
      row(3, 'Cotton top', 'a linen shirt inside', 1000),
      row(4, 'Linen shirt', '', 2000),
      row(5, 'Linen shirts', '', 3000),
    ]);
    const get = async (u: string) => (await call(shop.app, 'GET', `/v2/projects/search/products/?${u}`)).body;
    assert.deepEqual(
      (await get('q=linen%20shirt')).data.map((p: any) => p.id),
      [4, 1, 3, 5, 2],
    );
    assert.deepEqual(
      (await get('q=shirt%20LINEN')).data.map((p: any) => p.id),
      [4, 1, 3, 5, 2],
    ); // word order does not matter
    assert.deepEqual(
      (await get('q=linen%20shirt&order=relevance,date_asc')).data.map((p: any) => p.id),
      [1, 4, 3, 5, 2],
    );
    assert.deepEqual((await get('q=linen&order=price_asc')).meta.total, 5);
    assert.equal((await get('q=%20!!%20')).meta.total, 5); // no word: no filter
    assert.equal((await get('order=relevance')).error.details[0].field, 'order');
    assert.equal((await get('q=shirt&order=price_asc,relevance')).error.details[0].field, 'order');
    assert.equal((await get(`q=${'a%20'.repeat(11)}`)).error.details[0].field, 'q');
    assert.equal((await get('price_ranges=0-10')).error.details[0].field, 'price_ranges');
    assert.equal((await get('facets=price&price_ranges=10-5')).error.details[0].field, 'price_ranges');
    assert.equal((await get('price_min=10&price_max=5')).error.details[0].field, 'price_min');
    assert.equal((await get('categories=1,x')).error.details[0].field, 'categories');
    assert.equal((await get('in_stock=yes')).error.details[0].field, 'in_stock');
  });
});

function row(id: number, name: string, description: string, created_at: number) {
  return {
    id,
    name,
    description,
    sku: null,
    price: 1000,
    inventory_type: 'simple' as const,
    in_stock: true,
    stock_quantity: 0,
    show_in_store: true,
    category_ids: [],
    created_at,
  };
}
