import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { Backend } from '../../src/db/connect.js';
import { generate } from '../../src/generate/generate.js';
import { PLAN_LIMITS } from '../../src/resources/products/plan-limits.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';

// listProducts picks its query by how dense the matches are (walk an ordering's index, or
// start from the matches); orders of two clauses or more over dense matches go group by group
// of the first key (grouped-page.ts: a small group sorted, a large one walked in the second
// key's index, or with three keys paged again by the second key's groups); PostgreSQL's deep
// pages read their ids first. Every plan must give the same pages:
// compared here against a plain sort of all rows in JavaScript, with pages of several sizes
// (which switch plans), public and with hidden products, with the plan limits as they ship
// and lowered so that 400 products reach every plan (custom_sort 0 is then a large group).

const KEYS = { name: 'name_key', price: 'price', date: 'created_at', custom: 'custom_sort' } as const;

const ORDERS = [
  'price_asc,name_asc',
  'name_desc,price_asc',
  'custom_desc,date_asc',
  'custom_asc,price_desc',
  'custom_asc,name_asc',
  'price_desc,custom_asc',
  'date_desc',
  'custom_asc',
  'price_asc,custom_desc,name_asc',
  'custom_asc,price_desc,name_asc',
  'custom_desc,name_asc,price_desc',
];

eachBackend('product list query plans agree', (backend) => {
  for (const [limits, set] of [
    ['as shipped', PLAN_LIMITS],
    ['lowered', { largeGroup: 40 }],
  ] as const)
    for (const hidden of [false, true])
      test(`every filter, order and page size gives the pages of a plain sort (limits ${limits}${hidden ? ', hidden products too' : ''})`, async (t) => {
        const shipped = { ...PLAN_LIMITS };
        Object.assign(PLAN_LIMITS, set);
        t.after(() => Object.assign(PLAN_LIMITS, shipped));
        await agree(t, backend, hidden);
      });
});

async function agree(t: TestContext, backend: Backend, hidden: boolean): Promise<void> {
  const { app, storage, key } = await testApp(t, backend);
  await generate(storage, 'shop', { products: 400, orders: 0, users: 0 });
  const headers = hidden ? bearer(await key('shop')) : {};
  const rows = (await storage.db.selectFrom('products').selectAll().where('project_id', '=', 'shop').execute()).filter(
    (r) => hidden || r.show_in_store === 1,
  );
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
  for (const order of ORDERS) {
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
            `/v2/projects/shop/products/?order=${order}&perpage=${perpage}&page=${page}${query ? `&${query}` : ''}${hidden ? '&fetch_hidden=true' : ''}`,
            { headers },
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
}
