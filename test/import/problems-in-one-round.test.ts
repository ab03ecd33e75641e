import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { importFile } from '../../src/import/import.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { IMPORT_PROJECT as project, importFailure, refusedSections } from '../support/import-failure.js';
import { orderWithItems, tempFiles } from '../support/import-files.js';

// A file with problems is fixed in one round: every problem is listed by its place in the
// first run (field errors, ids given twice, references), and nothing is written.

const { dir, file } = tempFiles('storefront-import-problems-');

eachBackend('import problems in one round', (backend) => {
  test('the same id twice in one file is refused at the later place, naming the earlier', async (t) => {
    const { storage } = await testApp(t, backend);
    const problems = await refusedSections(storage.db, {
      products: [
        { id: 5, handle: 'a', name: 'A', price: 1 },
        { id: 6, handle: 'b', name: 'B', price: 1 },
        { id: 5, handle: 'c', name: 'C', price: 1 },
      ],
    });
    assert.deepEqual(problems, ['products[2].id: 5 is also the id of products[0]']);
    assert.equal(await storage.db.selectFrom('products').selectAll().executeTakeFirst(), undefined);

    // Far apart in a stream (other batches between them), and three times.
    const lines = [JSON.stringify({ type: 'project', ...project })];
    for (let i = 1; i <= 1500; i++)
      lines.push(JSON.stringify({ type: 'product', id: i, handle: `p-${i}`, name: 'P', price: 1 }));
    lines.push(JSON.stringify({ type: 'product', id: 7, handle: 'again', name: 'P', price: 1 }));
    lines.push(JSON.stringify({ type: 'product', id: 7, handle: 'thrice', name: 'P', price: 1 }));
    const streamed = await importFailure(importFile(storage.db, file('twice.ndjson', lines.join('\n'))));
    assert.deepEqual(streamed.problems, [
      'line 1502: id 7 is also the id of line 8',
      'line 1503: id 7 is also the id of line 8',
    ]);
  });

  test('a JSON syntax error names its line and column', async (t) => {
    const { storage } = await testApp(t, backend);
    const json = '{"project": {"id": "imp", "name": "I", "currency": "USD"},\n "products": [\n  {"name": "A"},,\n ]}';
    assert.deepEqual((await importFailure(importFile(storage.db, file('syntax.json', json)))).problems, [
      `${join(dir, 'syntax.json')}: not valid JSON at line 3, column 17: Unexpected token ','`,
    ]);
    const cut = '{"project": {"id": "imp",\n "name": "I"';
    assert.match(
      (await importFailure(importFile(storage.db, file('cut.json', cut)))).problems[0],
      /at line 2, column 13: /,
    );
    const lines = '{"type":"project","id":"imp","name":"I","currency":"USD"}\n{"type":"product" "name":"A"}\n';
    assert.deepEqual((await importFailure(importFile(storage.db, file('syntax.ndjson', lines)))).problems, [
      "line 2: is not valid JSON at column 19: Expected ',' or '}' after property value",
    ]);
  });

  test('references are reported in the same run as field errors, not those to refused records', async (t) => {
    const { storage } = await testApp(t, backend);
    const problems = await refusedSections(storage.db, {
      categories: [
        { id: 1, handle: 'a', name: 'A', parent_id: 77 },
        { id: 2, handle: 'b', name: '' }, // refused: a reference to it is not a second problem
      ],
      products: [
        { id: 1, handle: 'p', name: 'P', price: -1 },
        { id: 2, handle: 'q', name: 'Q', price: 1, category_ids: [2, 99] },
      ],
      plans: [{ id: 1, name: 'Plan', prices: [{ id: 1, amount: 1, interval: 'month' }] }],
      users: [{ id: 1, email: 'u@example.com', subscriptions: [{ plan_id: 3, price_id: 9, status: 'active' }] }],
      orders: [orderWithItems([1, 'refused'], [42, 'never'])],
    });
    assert.deepEqual(problems, [
      'categories[1].name: must be a string of 1 to 128 characters',
      'products[0].price: must be an integer from 0 to 1000000000000 in the smallest currency unit (12.34 GBP is 1234)',
      'categories[0].parent_id: refers to category 77, which does not exist',
      'products[1].category_ids: refers to category 99, which does not exist',
      'users[0].subscriptions[0]: refers to plan 3 with price 9, which does not exist',
      'orders[0].items[1].product_id: refers to product 42, which does not exist (use null for a removed product)',
    ]);
    assert.equal(
      await storage.db.selectFrom('projects').selectAll().where('id', '=', 'imp').executeTakeFirst(),
      undefined,
    );
  });
});
