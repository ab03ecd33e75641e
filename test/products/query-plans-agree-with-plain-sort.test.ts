import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generate } from '../../src/generate/generate.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { call } from '../support/request.js';

// listProducts picks its query by how dense the matches are (walk an ordering's index, or
// start from the matches) and, on SQLite, bounds multi-key orderings by the first key of the
// page's last row. Every plan must give the same pages: compared here against a plain sort
// of all rows in JavaScript, with pages of several sizes (which switch plans).

const KEYS = { name: 'name_key', price: 'price', date: 'created_at', custom: 'custom_sort' } as const;

eachBackend('product list query plans agree', (backend) => {
  test('every filter, multi-key order and page size gives the pages of a plain sort', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await generate(storage, 'shop', { products: 400, orders: 0, users: 0 });
    const rows = await storage.db
      .selectFrom('products')
      .selectAll()
      .where('project_id', '=', 'shop')
      .where('show_in_store', '=', 1)
      .execute();
    const links = await storage.db
      .selectFrom('product_categories')
      .selectAll()
      .where('project_id', '=', 'shop')
      .execute();
    const category = links[0].category_id;
    const inCategory = new Set(links.filter((l) => l.category_id === category).map((l) => l.product_id));
    // 60 ids: visible, hidden and unknown ones (ids= fetches them by primary key, then sorts).
    const picked = Array.from({ length: 60 }, (_, i) => 1 + ((i * 37) % 430));
    const inPicked = new Set(picked);
    const filters: [string, (r: (typeof rows)[number]) => boolean][] = [
      ['', () => true],
      [`category=${category}`, (r) => inCategory.has(r.id)],
      ['search=jor', (r) => r.search_text.includes('jor')],
      ['search=lin', (r) => r.search_text.includes('lin')],
      ['search=e', (r) => r.search_text.includes('e')],
      [`ids=${picked.join(',')}`, (r) => inPicked.has(r.id)],
      [`ids=${picked.join(',')}&category=${category}`, (r) => inPicked.has(r.id) && inCategory.has(r.id)],
      [`ids=${picked.join(',')}&search=e`, (r) => inPicked.has(r.id) && r.search_text.includes('e')],
    ];
    for (const order of ['price_asc,name_asc', 'name_desc,price_asc', 'custom_desc,date_asc', 'date_desc']) {
      const clauses = order.split(',').map((c) => c.split('_') as [keyof typeof KEYS, 'asc' | 'desc']);
      const lastDesc = clauses[clauses.length - 1][1] === 'desc';
      const compare = (a: (typeof rows)[number], b: (typeof rows)[number]) => {
        for (const [key, dir] of clauses) {
          const x = a[KEYS[key]];
          const y = b[KEYS[key]];
          if (x !== y) return (x < y ? -1 : 1) * (dir === 'asc' ? 1 : -1);
        }
        return (a.id - b.id) * (lastDesc ? -1 : 1);
      };
      for (const [query, keep] of filters) {
        const expected = rows
          .filter(keep)
          .sort(compare)
          .map((r) => r.id);
        for (const perpage of [1, 7, 100]) {
          const got: number[] = [];
          // The first pages and the last ones: enough to cross every plan switch.
          const pages = Math.ceil(expected.length / perpage);
          const wanted = [...new Set([1, 2, 3, pages - 1, pages, pages + 1].filter((p) => p >= 1))];
          for (const page of wanted) {
            const r = await call(
              app,
              'GET',
              `/v2/projects/shop/products/?order=${order}&perpage=${perpage}&page=${page}${query ? `&${query}` : ''}`,
            );
            assert.equal(r.status, 200, r.text);
            assert.equal(r.body.meta.total, expected.length, `${query} total`);
            const slice = expected.slice((page - 1) * perpage, page * perpage);
            got.push(...r.body.data.map((p: { id: number }) => p.id));
            assert.deepEqual(
              r.body.data.map((p: { id: number }) => p.id),
              slice,
              `${query} order=${order} perpage=${perpage} page=${page}`,
            );
          }
          assert.ok(got.length > 0 || expected.length === 0);
        }
      }
    }
  });
});
