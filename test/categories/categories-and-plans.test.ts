import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importDocument } from '../../src/import/import.js';
import { suiteApp, testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { seedShop } from '../support/shop.js';
import { call } from '../support/request.js';

interface Node {
  id: number;
  name: string;
  subcategories: Node[];
}
const shape = (nodes: Node[]): unknown => nodes.map((n) => [n.id, shape(n.subcategories)]);

eachBackend('categories', (backend) => {
  const t = suiteApp(backend, (t) => seedShop(t.storage));
  const get = (path: string) => call(t.app, 'GET', `/v2/projects/shop/categories${path}`);

  test('the list is a bare array, nested, every level sorted by name case-insensitively', async () => {
    const r = await get('/');
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.body));
    // fruit < Tools; under fruit: apples < Berries; Tools > Knives > small knives
    assert.deepEqual(shape(r.body), [
      [
        1,
        [
          [3, []],
          [2, []],
        ],
      ],
      [4, [[5, [[6, []]]]]],
    ]);
    assert.deepEqual(r.body[1].subcategories[0], {
      id: 5,
      handle: 'knives',
      name: 'Knives',
      parent_id: 4,
      subcategories: [{ id: 6, handle: 'small-knives', name: 'small knives', parent_id: 5, subcategories: [] }],
    });
    assert.equal((await get('')).text, r.text);
  });

  test('root-category gives that category with its subtree', async () => {
    const r = await get('/?root-category=4');
    assert.deepEqual(shape(r.body), [[4, [[5, [[6, []]]]]]]);
    assert.deepEqual(shape((await get('/?root-category=6')).body), [[6, []]]);
    assert.equal((await get('/?root-category=99')).status, 404);
    for (const bad of ['x', '0', '', '1,2']) assert.equal((await get(`/?root-category=${bad}`)).status, 400, bad);
    assert.equal((await get('/?root_category=1')).status, 400);
  });

  test('a single category by id or handle, with its subtree', async () => {
    const byId = await get('/1');
    const byHandle = await get('/fruit');
    assert.equal(byId.status, 200);
    assert.equal(byId.text, byHandle.text);
    assert.deepEqual(shape([byId.body]), [
      [
        1,
        [
          [3, []],
          [2, []],
        ],
      ],
    ]);
    for (const ref of ['99', '0', 'secret', 'Fruit', 'x--y']) assert.equal((await get(`/${ref}`)).status, 404, ref);
    assert.equal((await get('/1?depth=1')).status, 400);
  });

  test('names equal but for case are ordered by id, at the root and below', async (t2) => {
    const { app, storage } = await testApp(t2, backend);
    await importDocument(storage.db, {
      project: { id: 'ties', name: 'Ties', currency: 'USD' },
      categories: [
        { id: 9, handle: 'b-upper', name: 'B', parent_id: null },
        { id: 3, handle: 'b-lower', name: 'b', parent_id: null },
        { id: 5, handle: 'a', name: 'a', parent_id: null },
        { id: 8, handle: 'x-two', name: 'X', parent_id: 5 },
        { id: 7, handle: 'x-one', name: 'x', parent_id: 5 },
      ],
    });
    const r = await call(app, 'GET', '/v2/projects/ties/categories/');
    assert.deepEqual(shape(r.body), [
      [
        5,
        [
          [7, []],
          [8, []],
        ],
      ],
      [3, []],
      [9, []],
    ]);
  });

  test('another project sees only its own categories', async () => {
    const r = await call(t.app, 'GET', '/v2/projects/other/categories/');
    assert.deepEqual(shape(r.body), [[1, []]]);
    assert.equal(r.body[0].handle, 'secret');
  });
});

eachBackend('plans', (backend) => {
  const t = suiteApp(backend, (t) => seedShop(t.storage));
  const get = (path: string) => call(t.app, 'GET', `/v2/projects/shop/plans${path}`);

  test('the list holds active plans only, by id, with prices by amount then id', async () => {
    const r = await get('/');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['data']);
    assert.deepEqual(
      r.body.data.map((p: { id: number }) => p.id),
      [1, 4],
    );
    assert.deepEqual(r.body.data[0], {
      id: 1,
      name: 'Basic',
      description: '',
      status: 'active',
      prices: [
        { id: 1, amount: 900, currency: 'EUR', interval: 'month', interval_count: 1, trial_days: 0 },
        { id: 2, amount: 9000, currency: 'EUR', interval: 'year', interval_count: 1, trial_days: 0 },
      ],
      created_at: r.body.data[0].created_at,
      updated_at: r.body.data[0].updated_at,
    });
    assert.deepEqual(
      r.body.data[1].prices.map((p: { id: number }) => p.id),
      [4, 5],
    );
    assert.equal((await get('/?page=1')).status, 400);
  });

  test('a single plan in any status', async () => {
    for (const [id, status] of [
      [1, 'active'],
      [2, 'archived'],
      [3, 'deleted'],
      [5, 'deactivated'],
    ] as const) {
      const r = await get(`/${id}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.status, status);
    }
    assert.deepEqual((await get('/3')).body.prices, []);
    for (const ref of ['99', '0', 'abc', '-1']) assert.equal((await get(`/${ref}`)).status, 404, ref);
    assert.equal((await call(t.app, 'GET', '/v2/projects/other/plans/4')).status, 404);
  });
});
