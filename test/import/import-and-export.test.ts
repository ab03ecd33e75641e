import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { exportProject } from '../../src/export/export.js';
import { importDocument, importFile } from '../../src/import/import.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { IMPORT_PROJECT as project, importFailure, refusedSections } from '../support/import-failure.js';
import { orderWithItems, tempFiles } from '../support/import-files.js';
import { shopDocument } from '../support/shop.js';
import { call } from '../support/request.js';

const { dir, file } = tempFiles('storefront-import-');
const ndjson = (...lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

const problemsOf = async (work: Promise<unknown>) => (await importFailure(work)).problems;

async function exported(db: Parameters<typeof exportProject>[0], id: string): Promise<string> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c) => (text += c));
  await exportProject(db, id, out);
  return text;
}

eachBackend('import', (backend) => {
  test('defaults fill every field left out', async (t) => {
    const { app, storage } = await testApp(t, backend);
    const before = Math.floor(Date.now() / 1000);
    const summary = await importDocument(storage.db, {
      project,
      products: [{ handle: 'plain', name: 'Plain', price: 100 }],
      plans: [{ name: 'P', prices: [{ amount: 5, interval: 'month' }] }],
      users: [{ email: 'u@example.com' }],
      orders: [{ customer_email: 'U@Example.com', items: [{ product_id: 1, name: 'Plain', quantity: 3, price: 100 }] }],
    });
    assert.deepEqual(
      { projectId: summary.projectId, counts: summary.counts, deleted: summary.deleted },
      {
        projectId: 'imp',
        counts: { categories: 0, products: 1, plans: 1, users: 1, orders: 1 },
        deleted: { categories: 0, products: 0, plans: 0, users: 0, orders: 0 },
      },
    );
    assert.deepEqual(summary.changes.products, { created: 1, updated: 0, unchanged: 0, deleted: 0, fields: {} });
    const p = (await call(app, 'GET', '/v2/projects/imp/products/plain')).body;
    assert.ok(p.created_at >= before);
    assert.deepEqual(p, {
      id: 1,
      handle: 'plain',
      name: 'Plain',
      description: '',
      sku: null,
      price: 100,
      currency: 'GBP',
      inventory_type: 'simple',
      in_stock: true,
      stock_quantity: null,
      show_in_store: true,
      custom_sort: 0,
      category_ids: [],
      images: [],
      created_at: p.created_at,
      updated_at: p.created_at,
    });
    const plan = (await call(app, 'GET', '/v2/projects/imp/plans/1')).body;
    assert.equal(plan.status, 'active');
    assert.deepEqual(plan.prices, [
      { id: 1, amount: 5, currency: 'GBP', interval: 'month', interval_count: 1, trial_days: 0 },
    ]);
    const order = await storage.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();
    assert.equal(order.total, 300);
    assert.equal(order.currency, 'GBP');
    assert.equal(order.payment_status, 'pending');
    assert.equal(order.fulfillment_status, 'unfulfilled');
    assert.equal(order.email_key, 'u@example.com');
  });

  test('records upsert by id: a known id is replaced whole; no id takes the next free one', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await importDocument(storage.db, {
      project,
      categories: [{ id: 1, handle: 'c', name: 'C' }],
      products: [
        {
          id: 5,
          handle: 'five',
          name: 'Five',
          price: 1,
          description: 'old',
          sku: 'S5',
          category_ids: [1],
          custom_sort: 3,
        },
      ],
    });
    await importDocument(storage.db, {
      project: { ...project, name: 'Renamed', currency: 'CHF' },
      products: [
        { id: 5, handle: 'five', name: 'Five again', price: 2 },
        { handle: 'next', name: 'Next', price: 3 },
        { id: 9, handle: 'nine', name: 'Nine', price: 9 },
        { handle: 'ten', name: 'Ten', price: 10 },
      ],
    });
    const five = (await call(app, 'GET', '/v2/projects/imp/products/5')).body;
    assert.equal(five.name, 'Five again');
    assert.equal(five.description, ''); // left out: the default, not the old value
    assert.equal(five.sku, null);
    assert.deepEqual(five.category_ids, []);
    assert.equal(five.custom_sort, 0);
    assert.equal(five.currency, 'CHF'); // the project took the file's currency
    assert.equal((await call(app, 'GET', '/v2/projects/imp/products/next')).body.id, 6);
    assert.equal((await call(app, 'GET', '/v2/projects/imp/products/ten')).body.id, 10);
    const projectRow = await storage.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', 'imp')
      .executeTakeFirstOrThrow();
    assert.equal(projectRow.name, 'Renamed');
  });

  test('one bad record writes nothing, and every problem is listed by its place', async (t) => {
    const { storage } = await testApp(t, backend);
    assert.deepEqual(await problemsOf(importDocument(storage.db, { project, widgets: [] })), [
      'widgets: is not a known section (project, categories, products, plans, users, orders)',
    ]);
    const more = await refusedSections(storage.db, {
      categories: [{ id: 1, handle: 'Bad Handle', name: 'x' }],
      products: [
        { handle: 'p', name: 'P', price: 1 },
        { handle: 'q', name: 'Q', price: -1, colour: 'red' },
        { handle: 'p', name: 'Again', price: 1 },
        { handle: 'r', name: '  ', price: 1 },
        { handle: '123', name: 'digits', price: 1 },
      ],
      users: [{ email: 'not-an-email' }],
      orders: [{ customer_email: 'a@b.co', is_canceled: 'yes' }],
    });
    assert.deepEqual(more, [
      'categories[0].handle: must be a handle: lower-case letters and digits in words joined by single hyphens, not all digits',
      'products[1].colour: is not a known field',
      'products[1].price: must be an integer from 0 to 1000000000000 in the smallest currency unit (12.34 GBP is 1234)',
      'products[2].handle: "p" is already used by product 1 in this file',
      'products[3].name: must not be only white space',
      'products[4].handle: must be a handle: lower-case letters and digits in words joined by single hyphens, not all digits',
      'users[0].email: must be a valid email address',
      'orders[0].is_canceled: must be true or false',
    ]);
    assert.equal(await storage.db.selectFrom('projects').selectAll().executeTakeFirst(), undefined);
    assert.equal(await storage.db.selectFrom('products').selectAll().executeTakeFirst(), undefined);
  });

  test('references are checked once every record is in', async (t) => {
    const { storage } = await testApp(t, backend);
    const problems = await refusedSections(storage.db, {
      categories: [
        { id: 1, handle: 'a', name: 'A', parent_id: 2 },
        { id: 2, handle: 'b', name: 'B', parent_id: 1 },
        { id: 3, handle: 'c', name: 'C', parent_id: 99 },
        { id: 4, handle: 'd', name: 'D', parent_id: 5 }, // a parent that comes later is fine
        { id: 5, handle: 'e', name: 'E' },
      ],
      products: [{ id: 1, handle: 'p', name: 'P', price: 1, category_ids: [4, 42] }],
      plans: [
        { id: 1, name: 'Plan', prices: [{ id: 1, amount: 1, interval: 'month' }] },
        { id: 2, name: 'Other', prices: [{ id: 2, amount: 1, interval: 'year' }] },
      ],
      users: [
        {
          id: 1,
          email: 'u@example.com',
          subscriptions: [
            { plan_id: 1, price_id: 1, status: 'active' },
            { plan_id: 1, price_id: 2, status: 'active' },
          ],
        },
      ],
      orders: [orderWithItems([null, 'gone'], [3, 'never'])],
    });
    assert.deepEqual(problems, [
      'categories[0].parent_id: makes a cycle: a category cannot be its own ancestor',
      'categories[1].parent_id: makes a cycle: a category cannot be its own ancestor',
      'categories[2].parent_id: refers to category 99, which does not exist',
      'products[0].category_ids: refers to category 42, which does not exist',
      'users[0].subscriptions[1]: refers to plan 1 with price 2, which does not exist',
      'orders[0].items[1].product_id: refers to product 3, which does not exist (use null for a removed product)',
    ]);
    assert.equal(await storage.db.selectFrom('categories').selectAll().executeTakeFirst(), undefined);
  });

  test('text holding a NUL character is refused (PostgreSQL cannot store it)', async (t) => {
    const { storage } = await testApp(t, backend);
    const problems = await problemsOf(
      importDocument(storage.db, { project, products: [{ handle: 'n', name: 'N\u0000', price: 1 }] }),
    );
    assert.deepEqual(problems, ['products[0]: must not contain NUL characters']);
  });

  test('a handle held by another stored record is refused', async (t) => {
    const { storage } = await testApp(t, backend);
    await importDocument(storage.db, { project, products: [{ id: 1, handle: 'taken', name: 'A', price: 1 }] });
    const problems = await problemsOf(
      importDocument(storage.db, { project, products: [{ id: 2, handle: 'taken', name: 'B', price: 1 }] }),
    );
    assert.deepEqual(problems, ['products[0].handle: "taken" is already used by product 1']);
  });

  test('NDJSON: streamed, the project first, problems by line', async (t) => {
    const { app, storage } = await testApp(t, backend);
    const good = file(
      'good.ndjson',
      ndjson(
        { type: 'project', ...project },
        { type: 'category', id: 1, handle: 'c', name: 'C' },
        { type: 'product', id: 1, handle: 'p', name: 'P', price: 5, category_ids: [1] },
      ) +
        '\n' + // blank lines are skipped
        ndjson({ type: 'user', email: 'x@example.com' }),
    );
    const summary = await importFile(storage.db, good);
    assert.deepEqual(summary.counts, { categories: 1, products: 1, plans: 0, users: 1, orders: 0 });
    assert.deepEqual((await call(app, 'GET', '/v2/projects/imp/products/p')).body.category_ids, [1]);

    const bad = file(
      'bad.ndjson',
      ndjson(
        { type: 'product', handle: 'early', name: 'E', price: 1 },
        { type: 'project', ...project },
        { type: 'product', handle: 'x', name: 'X', price: 'free' },
      ) +
        '{not json\n' +
        ndjson({ type: 'gadget' }, [1, 2], { type: 'project', ...project }),
    );
    assert.deepEqual(await problemsOf(importFile(storage.db, bad)), [
      'line 1: the first record must be the project ({"type":"project",…})',
      'line 2: the project line must come first',
      'line 3: price must be an integer in the smallest currency unit (12.34 of a two-decimal currency is 1234)',
      "line 4: is not valid JSON at column 2: Expected property name or '}'",
      'line 5: type must be one of project, category, product, plan, user, order',
      'line 6: must be a JSON object with a "type"',
      'line 7: only one project line is allowed',
    ]);
    assert.deepEqual(await problemsOf(importFile(storage.db, file('empty.ndjson', ''))), [
      `${join(dir, 'empty.ndjson')}: is empty: the first line must be the project`,
    ]);
  });

  test('a large NDJSON file imports in one go', async (t) => {
    const { app, storage } = await testApp(t, backend);
    const lines = [JSON.stringify({ type: 'project', ...project })];
    for (let i = 1; i <= 5000; i++)
      lines.push(JSON.stringify({ type: 'product', handle: `p-${i}`, name: `Product ${i}`, price: i, created_at: i }));
    const progress: number[] = [];
    const summary = await importFile(storage.db, file('big.ndjson', lines.join('\n')), {
      onProgress: (n) => progress.push(n),
    });
    assert.equal(summary.counts.products, 5000);
    const r = await call(app, 'GET', '/v2/projects/imp/products/?perpage=1');
    assert.equal(r.body.meta.total, 5000);
    assert.equal(r.body.data[0].handle, 'p-5000');
  });

  test('a handle used again far down a large file is found, after earlier problems too', async (t) => {
    // Handles are not all held in memory: a repeat batches later is caught by the database,
    // which holds the earlier batches, and batches go on being written after a bad record.
    const { storage } = await testApp(t, backend);
    await importDocument(storage.db, { project, products: [{ id: 9000, handle: 'stored', name: 'Stored', price: 1 }] });
    const lines = [
      JSON.stringify({ type: 'project', ...project }),
      JSON.stringify({ type: 'product', handle: 'bad', name: 'Bad', price: -1 }),
    ];
    for (let i = 1; i <= 1500; i++)
      lines.push(JSON.stringify({ type: 'product', id: i, handle: `p-${i}`, name: `Product ${i}`, price: i }));
    lines.push(JSON.stringify({ type: 'product', id: 1601, handle: 'p-3', name: 'Again', price: 1 }));
    lines.push(JSON.stringify({ type: 'product', id: 1602, handle: 'stored', name: 'Stored again', price: 1 }));
    lines.push(JSON.stringify({ type: 'product', id: 3, handle: 'p-3-renamed', name: 'Renamed', price: 1 }));
    assert.deepEqual(await problemsOf(importFile(storage.db, file('repeats.ndjson', lines.join('\n')))), [
      'line 2: price must be an integer from 0 to 1000000000000 in the smallest currency unit (12.34 GBP is 1234)',
      'line 1503: handle "p-3" is already used by product 3 in this file',
      'line 1504: handle "stored" is already used by product 9000',
      'line 1505: id 3 is also the id of line 5', // an id given twice is refused too
    ]);
    // The batches written after the bad record were rolled back with the rest.
    const stored = await storage.db.selectFrom('products').select('id').where('project_id', '=', 'imp').execute();
    assert.deepEqual(
      stored.map((p) => Number(p.id)),
      [9000],
    );
    // Without the bad record and the three repeats the same file imports.
    lines.splice(1, 1);
    lines.splice(lines.length - 3, 3);
    const summary = await importFile(storage.db, file('fixed.ndjson', lines.join('\n')));
    assert.equal(summary.counts.products, 1500);
  });

  test('files: unreadable, wrong extension, broken JSON', async (t) => {
    const { storage } = await testApp(t, backend);
    assert.match((await problemsOf(importFile(storage.db, join(dir, 'missing.json'))))[0], /cannot be read \(ENOENT\)/);
    assert.match((await problemsOf(importFile(storage.db, file('x.txt', 'a,b'))))[0], /must end in \.json/);
    assert.match((await problemsOf(importFile(storage.db, file('broken.json', '{"project":'))))[0], /not valid JSON/);
    assert.deepEqual(await problemsOf(importDocument(storage.db, { products: [] })), ['project: is required']);
    assert.deepEqual(await problemsOf(importDocument(storage.db, [])), [
      'the document must be a JSON object with a "project"',
    ]);
  });

  test('export writes the import format: it imports back unchanged', async (t) => {
    const { storage } = await testApp(t, backend);
    await importDocument(storage.db, shopDocument());
    const text = await exported(storage.db, 'shop');
    const doc = JSON.parse(text);
    assert.deepEqual(Object.keys(doc), ['project', 'categories', 'products', 'plans', 'users', 'orders']);
    assert.equal(doc.products.length, 7);
    assert.equal(doc.products.find((p: { id: number }) => p.id === 4).in_stock, true); // stored, not derived
    await importDocument(storage.db, doc);
    assert.equal(await exported(storage.db, 'shop'), text);
  });
});
