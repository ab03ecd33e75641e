import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { trigramQuery } from '../../src/db/search-index.js';
import { generate } from '../../src/generate/generate.js';
import { importDocument } from '../../src/import/import.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';

// `search` through the trigram index (SQLite FTS5, PostgreSQL pg_trgm) finds exactly what a
// plain substring test finds: terms of one to many characters, LIKE's own wildcards and
// escape, quotes, non-ASCII text, case. Checked against JavaScript's includes() on the
// stored search_text, on both backends alike.

const TRICKY = [
  {
    id: 9001,
    handle: 'percent',
    name: '100% cotton_mug',
    description: 'back\\slash and "quotes"',
    sku: 'PCT-1',
    price: 1,
  },
  {
    id: 9002,
    handle: 'unicode',
    name: 'Ünïcödé Crème brûlée bowl',
    description: 'ÇA VA — très bien',
    sku: null,
    price: 2,
  },
  {
    id: 9003,
    handle: 'hidden-linen',
    name: 'Hidden linen',
    description: 'never in public lists',
    show_in_store: false,
    price: 3,
  },
  { id: 9004, handle: 'short', name: 'x', description: '', price: 4 },
];

const TERMS = [
  'a',
  'X',
  'ab',
  'jo',
  'jor',
  'Lin',
  'linen mug',
  'cotton_',
  '_',
  '%',
  '100%',
  '\\',
  'back\\sl',
  '"quotes"',
  '"',
  'ünï',
  'ÇA VA',
  'crème',
  'zzz',
  'kilo',
  ' ',
  'uct-',
];

eachBackend('search through the trigram index', (backend) => {
  test('finds exactly the products whose name, description or SKU holds the term', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    await generate(storage, 'shop', { products: 300, orders: 0, users: 0 });
    await importDocument(storage.db, { project: { id: 'shop', name: 'shop', currency: 'USD' }, products: TRICKY });
    const k = await key('shop');
    const rows = await storage.db
      .selectFrom('products')
      .select(['id', 'search_text', 'show_in_store'])
      .where('project_id', '=', 'shop')
      .execute();
    for (const term of TERMS) {
      const needle = term.toLowerCase();
      const expected = rows.filter((r) => r.search_text.includes(needle));
      for (const hidden of [false, true]) {
        const want = expected
          .filter((r) => hidden || r.show_in_store === 1)
          .map((r) => r.id)
          .sort((a, b) => a - b);
        const got: number[] = [];
        let total = -1;
        for (let page = 1; ; page++) {
          const query = `?search=${encodeURIComponent(term)}&perpage=100&page=${page}${hidden ? '&fetch_hidden=true' : ''}`;
          const r = await call(app, 'GET', `/v2/projects/shop/products/${query}`, { headers: hidden ? bearer(k) : {} });
          assert.equal(r.status, 200, `${term}: ${r.text}`);
          total = r.body.meta.total;
          got.push(...r.body.data.map((p: { id: number }) => p.id));
          if (r.body.data.length < 100) break;
        }
        assert.deepEqual(
          got.sort((a, b) => a - b),
          want,
          `search=${JSON.stringify(term)} fetch_hidden=${hidden}`,
        );
        assert.equal(total, want.length, `total of search=${JSON.stringify(term)}`);
      }
    }
    // The generated catalog has words of every frequency: the test must cover real matches.
    assert.ok(rows.filter((r) => r.search_text.includes('jor')).length > 0);
  });

  test('the index follows updates and imports: old words are no longer found, new ones are', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    await importDocument(storage.db, { project: { id: 'shop', name: 'shop', currency: 'USD' }, products: TRICKY });
    const k = await key('shop');
    const found = async (term: string) =>
      (
        await call(app, 'GET', `/v2/projects/shop/products/?fetch_hidden=true&search=${encodeURIComponent(term)}`, {
          headers: bearer(k),
        })
      ).body.data.map((p: { id: number }) => p.id);
    assert.deepEqual(await found('cotton'), [9001]);
    assert.equal(
      (
        await call(app, 'POST', '/v2/projects/shop/products/9001', {
          headers: bearer(k),
          body: { name: 'Woollen scarf' },
        })
      ).status,
      200,
    );
    assert.deepEqual(await found('cotton'), []);
    assert.deepEqual(await found('woollen'), [9001]);
    // The description and SKU are still searchable after the rename.
    assert.deepEqual(await found('back\\slash'), [9001]);
    await importDocument(storage.db, {
      project: { id: 'shop', name: 'shop', currency: 'USD' },
      products: [{ id: 9001, handle: 'percent', name: 'Copper kettle', price: 1 }],
    });
    assert.deepEqual(await found('woollen'), []);
    assert.deepEqual(await found('back\\slash'), []);
    assert.deepEqual(await found('copper kett'), [9001]);
    if (backend === 'sqlite') {
      // The FTS5 table holds exactly the rows of products: nothing stale is left behind.
      const count = async (term: string) =>
        Number(
          (
            await sql<{
              n: number;
            }>`select count(*) as n from products_fts where products_fts match ${trigramQuery(term)}`.execute(
              storage.db,
            )
          ).rows[0].n,
        );
      assert.equal(await count('kettle'), 1);
      assert.equal(await count('woollen'), 0);
      assert.equal(await count('cotton'), 0);
      // Checks the index against the products table (rank 1: the external content too).
      await sql`insert into products_fts(products_fts, rank) values ('integrity-check', 1)`.execute(storage.db);
    }
  });
});
