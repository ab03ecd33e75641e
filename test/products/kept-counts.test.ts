import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Storage } from '../../src/db/connect.js';
import { generate } from '../../src/generate/generate.js';
import { ImportError, importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';

// The kept product counts (src/resources/products/counts.ts) must always equal a fresh
// count(*): after generate, after imports that add products, move them between categories,
// hide and show them, delete products and categories, and after an import that fails and
// rolls back. Random, seeded.

type Counts = Map<string, { visible: number; total: number }>;

async function keptCounts(storage: Storage): Promise<Counts> {
  const rows = await storage.db.selectFrom('product_counts').selectAll().execute();
  return new Map(
    rows
      .filter((r) => Number(r.total) !== 0 || Number(r.visible) !== 0) // a category emptied keeps a row of zeros
      .map((r) => [`${r.project_id}/${r.category_id}`, { visible: Number(r.visible), total: Number(r.total) }]),
  );
}

async function freshCounts(storage: Storage): Promise<Counts> {
  const all = await sql<{ project_id: string; category_id: number; visible: number; total: number }>`
    select project_id, 0 as category_id, sum(show_in_store) as visible, count(*) as total
    from products group by project_id
    union all
    select pc.project_id, pc.category_id, sum(p.show_in_store), count(*)
    from product_categories pc join products p on p.project_id = pc.project_id and p.id = pc.product_id
    group by pc.project_id, pc.category_id`.execute(storage.db);
  return new Map(
    all.rows.map((r) => [`${r.project_id}/${r.category_id}`, { visible: Number(r.visible), total: Number(r.total) }]),
  );
}

function random(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor((seed / 2147483648) * n);
  };
}

eachBackend('kept product counts', (backend) => {
  test('equal a fresh count(*) after generate and random imports, and serve the totals', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await generate(storage, 'shop', { products: 300, orders: 0, users: 0 });
    assert.deepEqual(await keptCounts(storage), await freshCounts(storage), 'after generate');

    const categories = (
      await storage.db.selectFrom('categories').select('id').where('project_id', '=', 'shop').execute()
    ).map((c) => Number(c.id));
    const pick = random(Number(process.env.TEST_SEED ?? 14));
    for (let round = 0; round < 6; round++) {
      // Rewrites of stored products (other categories, other visibility) and new ones.
      const products = Array.from({ length: 120 }, (_, i) => {
        const id = round % 2 === 0 ? 1 + pick(340) : 301 + round * 200 + i;
        const cats = [...new Set(Array.from({ length: pick(4) }, () => categories[pick(categories.length)]))];
        return {
          id,
          handle: `p-${id}`,
          name: `Product ${id}`,
          price: 100 + pick(1000),
          show_in_store: pick(4) !== 0,
          category_ids: cats,
        };
      });
      const unique = [...new Map(products.map((p) => [p.id, p])).values()];
      await importDocument(storage.db, { project: { id: 'shop', name: 'Shop', currency: 'USD' }, products: unique });
      assert.deepEqual(await keptCounts(storage), await freshCounts(storage), `after import ${round}`);
    }

    // Deletions: products (in categories, hidden or not) and a category, whose links go.
    await importDocument(storage.db, {
      project: { id: 'shop', name: 'Shop', currency: 'USD' },
      products: Array.from({ length: 40 }, (_, i) => ({ id: 3 + i * 7, deleted: true })),
      categories: [{ id: categories[categories.length - 1], deleted: true }],
    });
    assert.deepEqual(await keptCounts(storage), await freshCounts(storage), 'after deletions');

    // A second project with the same category ids, and an import that fails: rolled back whole.
    await importDocument(storage.db, {
      project: { id: 'other', name: 'Other', currency: 'EUR' },
      categories: [{ id: categories[0], handle: 'c', name: 'C' }],
      products: [{ id: 1, handle: 'a', name: 'A', price: 1, category_ids: [categories[0]] }],
    });
    const before = await keptCounts(storage);
    await assert.rejects(
      importDocument(storage.db, {
        project: { id: 'shop', name: 'Shop', currency: 'USD' },
        products: [
          { id: 1, handle: 'moved', name: 'Moved', price: 1, show_in_store: false, category_ids: [categories[1]] },
          { id: 2, handle: 'broken', name: 'Broken', price: -1 },
        ],
      }),
      ImportError,
    );
    assert.deepEqual(await keptCounts(storage), before, 'a failed import changes nothing');
    assert.deepEqual(before, await freshCounts(storage));

    // The API's totals are the kept ones, public and with hidden products.
    const token = (await createKey(storage, 'shop', 'test')).key;
    for (const id of [0, ...categories]) {
      const counts = before.get(`shop/${id}`) ?? { visible: 0, total: 0 };
      const q = id === 0 ? '' : `&category=${id}`;
      const shown = await call(app, 'GET', `/v2/projects/shop/products/?perpage=1${q}`);
      assert.equal(shown.body.meta.total, counts.visible, `category ${id}`);
      const all = await call(app, 'GET', `/v2/projects/shop/products/?perpage=1&fetch_hidden=true${q}`, {
        headers: bearer(token),
      });
      assert.equal(all.body.meta.total, counts.total, `category ${id}, hidden too`);
    }
  });
});
