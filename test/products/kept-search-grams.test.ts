import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Storage } from '../../src/db/connect.js';
import { MIGRATION_NAMES, migrateToLatest, migrator } from '../../src/db/migrate.js';
import { generate } from '../../src/generate/generate.js';
import { ImportError, importDocument } from '../../src/import/import.js';
import { writeProject } from '../../src/writes/write-project.js';
import { deleteRecords } from '../../src/writes/delete-records.js';
import { foldCase } from '../../src/resources/products/present.js';
import { productsDescriptor } from '../../src/resources/products/descriptor.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';

// The kept search-gram counts (src/resources/products/grams.ts) must always equal a fresh
// count of the products holding each gram of 1 to 3 characters, computed here plainly from
// the stored search_text: after generate, imports that rename, hide and move products,
// renames over HTTP, deletions and a failed import. And the API's totals for such terms are
// the exact number of products whose search_text contains the folded term.

type Counts = Map<string, { visible: number; total: number }>;

/** What grams.ts keeps, by plain string work: no shared code with the tally. */
function expected(rows: { project_id: string; search_text: string; show_in_store: number }[]): Counts {
  const out: Counts = new Map();
  for (const r of rows) {
    const grams = new Set<string>();
    for (const field of r.search_text.split('\u001f'))
      for (let i = 0; i < field.length; i++)
        for (let n = 1; n <= 3 && i + n <= field.length; n++) {
          const gram = field.slice(i, i + n);
          if (!/[\ud800-\udfff]/.test(gram) && !gram.includes('\u0000')) grams.add(gram); // no astral character, no NUL
        }
    for (const gram of grams) {
      const key = `${r.project_id}/${gram}`;
      const c = out.get(key) ?? { visible: 0, total: 0 };
      c.total++;
      if (r.show_in_store === 1) c.visible++;
      out.set(key, c);
    }
  }
  return out;
}

async function check(storage: Storage, when: string): Promise<void> {
  const products = await storage.db
    .selectFrom('products')
    .select(['project_id', 'search_text', 'show_in_store'])
    .execute();
  const kept = await storage.db.selectFrom('search_grams').selectAll().execute();
  const got: Counts = new Map(
    kept.map((r) => [`${r.project_id}/${r.gram}`, { visible: Number(r.visible), total: Number(r.total) }]),
  );
  const want = expected(products);
  assert.equal(got.size, want.size, `${when}: as many kept grams as grams held (none left at 0)`);
  for (const [key, counts] of want) assert.deepEqual(got.get(key), counts, `${when}: ${key}`);
}

const project = { id: 'shop', name: 'Shop', currency: 'USD' };

eachBackend('kept search-gram counts', (backend) => {
  test('equal a plain count after every kind of write, and give the exact totals of short terms', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    await generate(storage, 'shop', { products: 150, orders: 0, users: 0 });
    await check(storage, 'after generate');

    // Rewrites of stored products (new names, hidden or shown) and new ones, in batches of
    // the import (more than 500 records), with text that folds (ß, Σ) and astral characters.
    const names = ['Straße Σοφία', 'STRASSE', 'Ὀδυσσεύς', 'emoji 😀 cup', 'naïve café', 'Plain mug'];
    for (let round = 0; round < 3; round++) {
      // Round 1 rewrites the generated products (ids 1 to 150, in another order).
      const products = Array.from({ length: round === 1 ? 150 : 560 }, (_, i) => {
        const id = round === 1 ? 1 + ((i * 7) % 150) : 200 + round * 600 + i;
        return {
          id,
          handle: `p-${round}-${i}`,
          name: `${names[(i + round) % names.length]} ${i % 13}`,
          description: i % 3 ? `Nice ${names[i % names.length]}` : '',
          sku: i % 4 ? `SK-${i}` : null,
          price: 100,
          show_in_store: (i + round) % 5 !== 0,
        };
      });
      await importDocument(storage.db, { project, products });
      await check(storage, `after import ${round}`);
    }
    await importDocument(storage.db, {
      project: { id: 'other', name: 'Other', currency: 'EUR' },
      products: [{ id: 1, handle: 'a', name: 'Straße', price: 1 }],
    });
    await check(storage, 'a second project');

    // Renames over HTTP (a hidden product too), and deletions by the import and the CLI's path.
    const token = await key('shop');
    for (const [id, name] of [
      [3, 'Σίσυφος'],
      [5, 'STRASSE 2'],
      [600, 'mug'],
    ] as const) {
      const res = await call(app, 'POST', `/v2/projects/shop/products/${id}`, {
        headers: bearer(token),
        body: { name },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    await check(storage, 'after renames');
    await importDocument(storage.db, {
      project,
      products: [
        { id: 7, deleted: true },
        { id: 650, deleted: true },
      ],
    });
    await writeProject(storage, 'shop', (ctx) => deleteRecords(ctx, productsDescriptor, [8, 9, 999_999]), {
      kind: 'batch',
    });
    await check(storage, 'after deletions');

    const before = await storage.db
      .selectFrom('search_grams')
      .selectAll()
      .orderBy('project_id')
      .orderBy('gram')
      .execute();
    await assert.rejects(
      importDocument(storage.db, {
        project,
        products: [
          { id: 10, handle: 'renamed', name: 'Zzz qqq', price: 1 },
          { id: 11, handle: 'broken', name: 'Broken', price: -1 },
        ],
      }),
      ImportError,
    );
    const after = await storage.db
      .selectFrom('search_grams')
      .selectAll()
      .orderBy('project_id')
      .orderBy('gram')
      .execute();
    assert.deepEqual(after, before, 'a failed import changes nothing');

    // Totals of 1- to 3-character terms (kept) and longer ones (counted) against String.includes.
    const stored = await storage.db
      .selectFrom('products')
      .select(['search_text', 'show_in_store'])
      .where('project_id', '=', 'shop')
      .execute();
    for (const term of [
      's',
      'ss',
      'ß',
      'SS',
      'σ',
      'Σ',
      'ΣΟ',
      'é',
      'Caf',
      'mug',
      'sk-',
      '😀',
      'zzz',
      'plain',
      'strasse',
    ]) {
      const folded = foldCase(term);
      const matches = stored.filter((p) => p.search_text.split('\u001f').some((f) => f.includes(folded)));
      const shown = await call(app, 'GET', `/v2/projects/shop/products/?perpage=1&search=${encodeURIComponent(term)}`);
      assert.equal(shown.body.meta.total, matches.filter((p) => p.show_in_store === 1).length, `total of "${term}"`);
      const all = await call(
        app,
        'GET',
        `/v2/projects/shop/products/?perpage=1&fetch_hidden=true&search=${encodeURIComponent(term)}`,
        { headers: bearer(token) },
      );
      assert.equal(all.body.meta.total, matches.length, `total of "${term}" with hidden products`);
    }
  });

  test('the migration counts the products stored before it', async (t) => {
    const { storage } = await testApp(t, backend);
    await generate(storage, 'shop', { products: 120, orders: 0, users: 0 });
    await generate(storage, 'other', { products: 30, orders: 0, users: 0 });
    const down = await (await migrator(storage.db)).migrateTo('010-webhooks');
    assert.equal(down.error, undefined);
    // Every migration from 011 on applies again (later ones too).
    assert.deepEqual(
      await migrateToLatest(storage.db),
      MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf('011-search-grams')),
    );
    await check(storage, 'after the migration');
  });
});
