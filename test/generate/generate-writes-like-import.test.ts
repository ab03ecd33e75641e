import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { exportProject } from '../../src/export/export.js';
import { generate } from '../../src/generate/generate.js';
import { importDocument } from '../../src/import/import.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { openStorage } from '../support/storage.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

async function exported(storage: Parameters<typeof exportProject>[0], projectId: string): Promise<string> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  await exportProject(storage, projectId, out);
  return text;
}

eachBackend('storefront generate', (backend) => {
  test('writes what an import of the same records writes', async (t) => {
    const { storage } = await testApp(t, backend);
    const summary = await generate(storage, 'gen', { products: 120, orders: 40, users: 15 });
    assert.deepEqual(summary.counts, {
      categories: summary.counts.categories,
      products: 120,
      plans: 3,
      users: 15,
      orders: 40,
    });
    const first = await exported(storage.db, 'gen');

    // Import the export into fresh storage: every row must come out the same again.
    const other = await openStorage(backend);
    t.after(() => other.close());
    await importDocument(other.db, JSON.parse(first));
    assert.equal(await exported(other.db, 'gen'), first);
    const tables = ['products', 'categories', 'orders', 'users'] as const;
    for (const table of tables) {
      const a = await storage.db.selectFrom(table).selectAll().where('project_id', '=', 'gen').orderBy('id').execute();
      const b = await other.db.selectFrom(table).selectAll().where('project_id', '=', 'gen').orderBy('id').execute();
      assert.deepEqual(a, b, `${table}: the same rows, derived columns included`);
    }
  });

  test('creates the project in USD, covers every kind of data, and adds to an existing project', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    await generate(storage, 'gen', { products: 200, orders: 100, users: 30 });
    const project = await storage.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', 'gen')
      .executeTakeFirstOrThrow();
    assert.equal(project.currency, 'USD');
    const products = await storage.db.selectFrom('products').selectAll().where('project_id', '=', 'gen').execute();
    assert.ok(
      products.some((p) => p.show_in_store === 0) && products.some((p) => p.show_in_store === 1),
      'hidden and visible products',
    );
    assert.ok(
      products.some((p) => p.inventory_type === 'simple') && products.some((p) => p.inventory_type === 'advanced'),
      'both inventory types',
    );
    const statuses = await storage.db
      .selectFrom('orders')
      .select(['payment_status', 'fulfillment_status'])
      .distinct()
      .where('project_id', '=', 'gen')
      .execute();
    assert.equal(new Set(statuses.map((s) => s.payment_status)).size, 4, 'orders in every payment status');
    assert.equal(new Set(statuses.map((s) => s.fulfillment_status)).size, 5, 'orders in every fulfillment status');
    const nested = await storage.db
      .selectFrom('categories as c')
      .innerJoin('categories as p', (j) =>
        j.onRef('p.id', '=', 'c.parent_id').onRef('p.project_id', '=', 'c.project_id'),
      )
      .select('c.id')
      .where('p.parent_id', 'is not', null)
      .execute();
    assert.ok(nested.length > 0, 'categories three levels deep');
    const subscriptions = await storage.db
      .selectFrom('subscriptions')
      .select('user_id')
      .where('project_id', '=', 'gen')
      .execute();
    assert.ok(subscriptions.length > 0, 'users with subscriptions');

    const k = await key('gen');
    const total = async () =>
      (await call(app, 'GET', '/v2/projects/gen/products/?fetch_hidden=true', { headers: bearer(k) })).body.meta.total;
    assert.equal(await total(), 200);
    await generate(storage, 'gen', { products: 50, orders: 0, users: 0 });
    // The version bump of the second run is seen by the cached total at once.
    assert.equal(await total(), 250);
    const max = await storage.db
      .selectFrom('products')
      .select((eb) => eb.fn.max('id').as('m'))
      .where('project_id', '=', 'gen')
      .executeTakeFirstOrThrow();
    assert.equal(Number(max.m), 250);
  });

  test('a second run keeps the category tree and the plans of the first, and files into them', async (t) => {
    const { storage } = await testApp(t, backend);
    const first = await generate(storage, 'gen', { products: 60, orders: 10, users: 20 });
    const count = async (table: 'categories' | 'plans' | 'plan_prices' | 'products' | 'users') =>
      Number(
        (
          await storage.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('project_id', '=', 'gen')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const categories = await count('categories');
    const second = await generate(storage, 'gen', { products: 60, orders: 10, users: 40 });
    assert.deepEqual(second.counts, { categories: 0, products: 60, plans: 0, users: 40, orders: 10 });
    assert.deepEqual(second.kept, { categories: first.counts.categories, plans: 3 });
    assert.equal(await count('categories'), categories);
    assert.equal(await count('plans'), 3);
    assert.equal(await count('plan_prices'), 6);
    assert.equal(await count('products'), 120);
    // The new products sit in the kept tree's leaves, the new users on the kept plans.
    const links = await storage.db
      .selectFrom('product_categories')
      .select('category_id')
      .distinct()
      .where('project_id', '=', 'gen')
      .where('product_id', '>', 60)
      .execute();
    assert.ok(links.length > 0 && links.every((l) => Number(l.category_id) <= categories));
    const subscriptions = await storage.db
      .selectFrom('subscriptions')
      .select(['plan_id', 'price_id'])
      .where('project_id', '=', 'gen')
      .where('user_id', '>', 20)
      .execute();
    assert.ok(subscriptions.length > 0);
    assert.ok(subscriptions.every((s) => Number(s.plan_id) <= 3 && Number(s.price_id) <= 6));
  });
});

test('the generate command: counts on stdout, bad input is a usage error that writes nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'generate-cli-'));
  try {
    const db = `sqlite:${join(dir, 'g.db')}`;
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, 'bin', 'storefront.js'), ...args, '--database', db], {
        encoding: 'utf8',
      });
    const ok = cli('generate', 'cli-shop', '--products', '25', '--orders', '5', '--users', '3');
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^generated into cli-shop: \d+ categories, 25 products, 3 plans, 3 users, 5 orders \(/);
    for (const bad of [['generate', 'cli-shop', '--products', 'many'], ['generate', 'Bad Id'], ['generate']]) {
      const r = cli(...bad);
      assert.equal(r.status, 2, bad.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
