import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ImportError, importDocument } from '../../src/import/import.js';
import { eachBackend } from '../support/each-backend.js';
import { call } from '../support/request.js';
import { shopApp } from '../support/shop-app.js';
import { SHOP } from '../support/shop.js';

// CONTRACT 10 through the import: `{ "id": …, "deleted": true }` with each cascade, all or
// nothing, and the change-feed entries of everything a deletion changed.

const project = { id: SHOP, name: 'Shop', currency: 'EUR' };

eachBackend('deleting records', (backend) => {
  async function setup(t: Parameters<typeof shopApp>[0]) {
    const shop = await shopApp(t, backend);
    const since = (await shop.call('GET', '/changes/?limit=1000&types=product,category,plan,user,order')).body.next;
    const changes = async () =>
      (
        await shop.call('GET', `/changes/?limit=1000&types=product,category,plan,user,order&since=${since}`)
      ).body.data.map((e: any) => `${e.type} ${e.id} ${e.action}`);
    return { ...shop, changes };
  }

  test('a product leaves every list and category; its order items keep name and price with product_id null', async (t) => {
    const { app, storage, call: keyed, changes } = await setup(t);
    const summary = await importDocument(storage.db, { project, products: [{ id: 7, deleted: true }] });
    assert.deepEqual(summary.deleted, { categories: 0, products: 1, plans: 0, users: 0, orders: 0 });
    assert.equal((await call(app, 'GET', `/v2/projects/${SHOP}/products/7`)).status, 404);
    assert.equal((await keyed('GET', '/products/7?fetch_hidden=true')).status, 404);
    assert.deepEqual((await call(app, 'GET', `/v2/projects/${SHOP}/products/?category=5`)).body.data, []);
    const order = (await keyed('GET', '/orders/1')).body;
    assert.deepEqual(order.items[0], { product_id: null, name: 'Knife', quantity: 2, price: 2500 });
    // Every order of the shop holds product 7; within one transaction entries go by type, then id.
    assert.deepEqual(await changes(), [...[1, 2, 3, 4, 5, 6].map((id) => `order ${id} upsert`), 'product 7 delete']);
  });

  test('a category takes its subtree; its products stay without those categories', async (t) => {
    const { app, storage, changes } = await setup(t);
    const summary = await importDocument(storage.db, { project, categories: [{ id: 4, deleted: true }] });
    assert.equal(summary.deleted.categories, 3); // 4, its child 5 and grandchild 6
    const tree = (await call(app, 'GET', `/v2/projects/${SHOP}/categories/`)).body;
    assert.deepEqual(
      tree.map((c: any) => c.id),
      [1],
    );
    const knife = (await call(app, 'GET', `/v2/projects/${SHOP}/products/7`)).body;
    assert.deepEqual(knife.category_ids, []);
    assert.deepEqual(await changes(), [
      'category 4 delete',
      'category 5 delete',
      'category 6 delete',
      'product 7 upsert',
    ]);
  });

  test('a plan is not removed: its status becomes deleted and it leaves the list', async (t) => {
    const { app, storage, changes } = await setup(t);
    await importDocument(storage.db, { project, plans: [{ id: 4, deleted: true }] });
    const plan = (await call(app, 'GET', `/v2/projects/${SHOP}/plans/4`)).body;
    assert.equal(plan.status, 'deleted');
    assert.deepEqual(
      (await call(app, 'GET', `/v2/projects/${SHOP}/plans/`)).body.data.map((p: any) => p.id),
      [1],
    );
    assert.deepEqual(await changes(), ['plan 4 delete']);
  });

  test('a user goes; its orders stay', async (t) => {
    const { storage, call: keyed, changes } = await setup(t);
    const before = (await keyed('GET', '/orders/?perpage=100')).body.meta.total;
    await importDocument(storage.db, { project, users: [{ id: 1, deleted: true }] });
    assert.equal((await keyed('GET', '/users/1')).status, 404);
    assert.equal((await keyed('GET', '/orders/?perpage=100')).body.meta.total, before);
    assert.deepEqual(await changes(), ['user 1 delete']);
  });

  test('an order goes with its items', async (t) => {
    const { storage, call: keyed, changes } = await setup(t);
    await importDocument(storage.db, { project, orders: [{ id: 1, deleted: true }] });
    assert.equal((await keyed('GET', '/orders/1')).status, 404);
    assert.deepEqual(await changes(), ['order 1 delete']);
    assert.equal(
      await storage.db
        .selectFrom('order_items')
        .select('order_id')
        .where('project_id', '=', SHOP)
        .where('order_id', '=', 1)
        .executeTakeFirst(),
      undefined,
    );
  });

  test('an unknown id is a no-op; another project is untouched', async (t) => {
    const { app, storage, changes } = await setup(t);
    const summary = await importDocument(storage.db, { project, products: [{ id: 999, deleted: true }] });
    assert.equal(summary.deleted.products, 0);
    assert.deepEqual(await changes(), []);
    assert.equal((await call(app, 'GET', '/v2/projects/other/products/1')).status, 200);
  });

  test('NDJSON deletions, in file order with the records around them', async (t) => {
    const { app, storage } = await setup(t);
    const { tempFiles } = await import('../support/import-files.js');
    const { importFile } = await import('../../src/import/import.js');
    const files = tempFiles('sf-deletions-');
    const file = files.file(
      'd.ndjson',
      [
        JSON.stringify({ type: 'project', ...project }),
        JSON.stringify({ type: 'product', id: 1, deleted: true }),
        JSON.stringify({ type: 'product', id: 1, handle: 'alpha', name: 'Again', price: 1 }),
        JSON.stringify({ type: 'product', id: 2, handle: 'bravo', name: 'Gone soon', price: 1 }),
        JSON.stringify({ type: 'product', id: 2, deleted: true }),
      ].join('\n'),
    );
    const summary = await importFile(storage.db, file);
    assert.equal(summary.deleted.products, 2);
    assert.equal((await call(app, 'GET', `/v2/projects/${SHOP}/products/1`)).body.name, 'Again');
    assert.equal((await call(app, 'GET', `/v2/projects/${SHOP}/products/2`)).status, 404);
  });

  test('all or nothing: a bad record or a bad deletion rolls every deletion back, each problem by its place', async (t) => {
    const { app, storage, changes } = await setup(t);
    await assert.rejects(
      importDocument(storage.db, {
        project,
        products: [
          { id: 1, deleted: true },
          { id: 2, deleted: false },
          { deleted: true },
          { id: 3, deleted: true, name: 'x' },
        ],
        orders: [{ customer_email: 'not an email' }],
      }),
      (e: ImportError) => {
        assert.deepEqual(e.problems.slice(0, 4), [
          'products[1].deleted: must be true (leave it out to write the record)',
          'products[2].id: must be the positive integer id of the record to delete',
          'products[3].name: is not allowed in a deletion, which holds only "id" and "deleted": true',
          e.problems[3],
        ]);
        assert.match(e.problems[3], /^orders\[0\]/);
        return true;
      },
    );
    assert.equal((await call(app, 'GET', `/v2/projects/${SHOP}/products/1`)).status, 200);
    assert.deepEqual(await changes(), []);
  });
});
