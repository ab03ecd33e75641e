import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { importDocument } from '../../src/import/import.js';
import { resourceOfType } from '../../src/resources/registry.js';
import { deleteRecords } from '../../src/writes/delete-records.js';
import { writeProject } from '../../src/writes/write-project.js';
import { eachBackend } from '../support/each-backend.js';
import { type TestApp, testApp } from '../support/app.js';
import { call } from '../support/request.js';
import { CATEGORIES, POOL, importCatalog, randomCatalog } from './search/catalog.js';

// Shopper search from the match index in memory (src/resources/products/search/match-index*.ts)
// against the SQL path, which stays as its oracle: two apps on one database, one with the
// index, one without (STOREFRONT_SEARCH_INDEX_BYTES=0), both without the answer and page
// caches, give the same ids in the same order, the same total and the same facets for random
// requests between random writes of every kind the index is caught up from (updates, renames,
// stock, visibility, batches, imports with deletions and category changes, deletions of
// products and categories).

const P = 'search';
const ID_MAX = 60;
const ORDERS = ['price_asc', 'price_desc', 'date_asc', 'date_desc', 'custom_asc,price_desc', 'name_asc'];

const word = fc.constantFrom(...POOL);
const phrase = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const id = fc.integer({ min: 1, max: ID_MAX });
const category = fc.integer({ min: 1, max: CATEGORIES.length + 2 });
const fields = fc.record(
  {
    name: phrase,
    description: phrase,
    price: fc.integer({ min: 0, max: 20 }).map((p) => p * 250),
    show_in_store: fc.boolean(),
    custom_sort: fc.integer({ min: 0, max: 2 }),
    stock: fc.integer({ min: 0, max: 2 }),
    category_ids: fc.uniqueArray(category, { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

type Fields = Record<string, unknown>;
type Op =
  | { k: 'update'; id: number; fields: Fields }
  | { k: 'batch'; items: { id: number; fields: Fields }[] }
  | { k: 'import'; products: ({ id: number } & Fields)[]; deletions: number[] }
  | { k: 'delete'; type: 'product' | 'category'; ids: number[] }
  | { k: 'move'; id: number; parent: number | null }
  | { k: 'query'; q: Record<string, string>; hidden: boolean };

const query = fc
  .record(
    {
      q: fc
        .array(
          fc.oneof(
            word,
            word.map((w) => w.slice(0, -1)),
            word.map((w) => `${w.slice(1)}`),
          ),
          {
            minLength: 1,
            maxLength: 3,
          },
        )
        .map((w) => w.join(' ')),
      price_min: fc.integer({ min: 0, max: 10 }).map((p) => String(p * 250)),
      in_stock: fc.boolean().map(String),
      inventory_type: fc.constantFrom('simple', 'advanced'),
      categories: fc.uniqueArray(category, { minLength: 1, maxLength: 2 }).map((c) => c.join(',')),
      category: category.map(String),
      order: fc.constantFrom(...ORDERS, 'relevance,price_asc', 'relevance'),
      facets: fc
        .subarray(['category', 'price', 'in_stock', 'inventory_type'], { minLength: 1 })
        .map((f) => f.join(',')),
      price_ranges: fc.constant('-1000,1000-2500,2500-'),
      page: fc.constantFrom('1', '2', '9'),
      perpage: fc.constantFrom('3', '20'),
    },
    { requiredKeys: [] },
  )
  .map((q) => {
    // Mostly requests the API accepts: price_ranges with the price facet, relevance with q.
    if (!q.facets?.includes('price')) delete q.price_ranges;
    if (q.q === undefined && q.order?.startsWith('relevance')) delete q.order;
    return q;
  });

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ k: fc.constant('update' as const), id, fields }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('batch' as const),
      items: fc.uniqueArray(fc.record({ id, fields }), { minLength: 1, maxLength: 4, selector: (i) => i.id }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('import' as const),
      products: fc.uniqueArray(
        fc.record({ id: fc.integer({ min: 1, max: ID_MAX + 20 }), name: phrase, price: fc.nat(5000) }),
        { maxLength: 5, selector: (p) => p.id },
      ),
      deletions: fc.uniqueArray(id, { maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('delete' as const),
      type: fc.constantFrom('product' as const, 'category' as const),
      ids: fc.uniqueArray(fc.integer({ min: 1, max: CATEGORIES.length + 2 }), { minLength: 1, maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('move' as const), id: category, parent: fc.option(category) }) },
  { weight: 8, arbitrary: fc.record({ k: fc.constant('query' as const), q: query, hidden: fc.boolean() }) },
);

eachBackend('shopper search from memory gives what SQL gives', (backend) => {
  test('random catalogs, random writes, random requests: the same ids, order, totals and facets', async (t) => {
    let queries = 0;
    let answered = 0;
    let threaded = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(op, { minLength: 40, maxLength: 40 }),
        async (seed, ops) => {
          // Every answer from memory computed in a search thread (search-threads.ts), as a large catalog's are.
          const memory = await testApp(t, backend, { caches: { answers: false, counts: false, searchThreadFrom: 0 } });
          const sql = await testApp(t, backend, {
            storage: memory.storage,
            caches: { answers: false, counts: false, searchIndexBytes: 0 },
          });
          await importCatalog(memory.storage, randomCatalog(seed, ID_MAX - 10));
          const key = await memory.key(P);
          for (const o of ops) {
            if (o.k !== 'query') {
              await write(memory, key, o);
              continue;
            }
            queries++;
            const before = memory.app.matchIndexes.stats.answered;
            const threadedBefore = memory.app.matchIndexes.stats.threaded;
            const url = `/v2/projects/${P}/products/?${new URLSearchParams({ ...o.q, ...(o.hidden ? { fetch_hidden: 'true' } : {}) })}`;
            const headers = { authorization: `Bearer ${key}` };
            const [a, b] = [
              await call(memory.app, 'GET', url, { headers }),
              await call(sql.app, 'GET', url, { headers }),
            ];
            if (a.status === 200) answered += memory.app.matchIndexes.stats.answered - before;
            else refused++;
            threaded += memory.app.matchIndexes.stats.threaded - threadedBefore;
            assert.equal(a.status, b.status, `${url}: ${JSON.stringify(a.body)}`);
            const shown = (r: typeof a) => {
              const body = r.body as { data?: { id: number }[]; meta?: unknown };
              return { ids: body.data?.map((p) => p.id), meta: body.meta, body: body.data ? undefined : body };
            };
            assert.deepEqual(shown(a), shown(b), url);
          }
        },
      ),
      { numRuns: Number(process.env.MEMORY_SEARCH_RUNS ?? 4), endOnFailure: true },
    );
    // Most requests must have been answered from memory (name orders and a build still under way are not).
    t.diagnostic(`[${backend}] ${answered} of ${queries} requests from memory, ${refused} refused`);
    assert.ok(answered > (queries - refused) * 0.6, `${answered} of ${queries - refused}`);
    assert.equal(threaded, answered, 'every answer from memory computed in a search thread');
  });
});

/** One write through the public paths; one the API refuses (a category that does not exist) writes nothing. */
async function write(shop: TestApp, key: string, o: Exclude<Op, { k: 'query' }>): Promise<void> {
  const headers = { authorization: `Bearer ${key}` };
  const body = (id: number, f: Fields) => {
    const { stock, ...rest } = f;
    // stock 0 or 1: a simple product out of or in stock; 2: an advanced one, in stock for even ids.
    if (stock === undefined) return rest;
    return stock === 2
      ? { ...rest, inventory_type: 'advanced', stock_quantity: id % 2 === 0 ? 2 : 0 }
      : { ...rest, inventory_type: 'simple', in_stock: stock === 1 };
  };
  const quiet = (p: Promise<unknown>) => p.catch(() => undefined);
  const project = { id: P, name: 'Search', currency: 'EUR' };
  if (o.k === 'update')
    await call(shop.app, 'POST', `/v2/projects/${P}/products/${o.id}`, { headers, body: body(o.id, o.fields) });
  if (o.k === 'batch')
    await call(shop.app, 'PATCH', `/v2/projects/${P}/products/`, {
      headers,
      body: { products: o.items.map((i) => ({ id: i.id, ...body(i.id, i.fields) })) },
    });
  if (o.k === 'import') {
    const products = [
      ...o.products.map((p) => ({ ...p, handle: `p${p.id}` })),
      ...o.deletions.map((d) => ({ id: d, deleted: true })),
    ];
    await quiet(importDocument(shop.storage.db, { project, products }));
  }
  if (o.k === 'delete')
    await writeProject(shop.storage, P, (ctx) => deleteRecords(ctx, resourceOfType(o.type)!, o.ids), { kind: 'batch' });
  if (o.k === 'move') {
    // A parent of a lower id keeps the tree free of cycles.
    const parent = o.parent !== null && o.parent < o.id ? o.parent : null;
    const categories = [{ id: o.id, handle: `c${o.id}`, name: `C${o.id}`, parent_id: parent }];
    await quiet(importDocument(shop.storage.db, { project, categories }));
  }
}
