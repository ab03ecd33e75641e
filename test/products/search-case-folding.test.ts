import assert from 'node:assert/strict';
import { test } from 'node:test';
import { up as refold } from '../../src/db/migrations/004-search-folding.js';
import { foldCase } from '../../src/resources/products/present.js';
import { eachBackend } from '../support/each-backend.js';
import { ids } from '../support/request.js';
import { type ShopApp, shopApp } from '../support/shop-app.js';

// `search` folds case with Unicode full case folding, the same on both backends (docs/API.md,
// "Products"): a capital sigma matches whatever its place in a word, ß matches "ss".

// id, the name given, and the search text the code before migration 004 stored for it
// (toLowerCase: a final ς, ß kept; description and SKU left out).
const NAMES = [
  [1, 'ΚΟΣΤΑΣ rug', 'κοστας rug'],
  [2, 'ΟΔΟΣ sign', 'οδος sign'],
  [4, 'Große Straße', 'große straße'],
] as const;

async function greekShop(t: Parameters<typeof shopApp>[0], backend: Parameters<typeof shopApp>[1]) {
  const shop = await shopApp(t, backend);
  for (const [id, name] of NAMES) assert.equal((await shop.post(`/products/${id}`, { name })).status, 200);
  return shop;
}

const found = async (shop: ShopApp, term: string) =>
  ids(await shop.call('GET', `/products/?search=${encodeURIComponent(term)}&order=name_asc`)).sort();

test('foldCase: every sigma is one letter, full mappings apply', () => {
  assert.equal(foldCase('ΟΔΟΣ'), foldCase('οδοσ'));
  assert.equal(foldCase('ΚΟΣ'), 'κοσ');
  assert.equal(foldCase('Straße'), 'strasse');
  assert.equal(foldCase('STRASSE'), 'strasse');
  assert.equal(foldCase('ẞ'), 'ss');
  assert.equal(foldCase('ﬁne'), 'fine');
});

eachBackend('search folds case', (backend) => {
  test('ΚΟΣ finds ΚΟΣΤΑΣ, Σ finds ΟΔΟΣ and ΚΟΣΤΑΣ, in any case', async (t) => {
    const shop = await greekShop(t, backend);
    assert.deepEqual(await found(shop, 'ΚΟΣ'), [1]); // three letters: SQLite's trigram index
    assert.deepEqual(await found(shop, 'κος'), [1]);
    assert.deepEqual(await found(shop, 'ΟΣ'), [1, 2]); // shorter: a scan
    assert.deepEqual(await found(shop, 'Σ'), [1, 2]);
    assert.deepEqual(await found(shop, 'ς'), [1, 2]);
    assert.deepEqual(await found(shop, 'οδοσ'), [2]);
    assert.deepEqual(await found(shop, 'strasse'), [4]);
    assert.deepEqual(await found(shop, 'STRAẞE'), [4]);
    assert.deepEqual(await found(shop, 'große'), [4]);
  });

  test('migration 004 refolds text stored before it, index included', async (t) => {
    const shop = await greekShop(t, backend);
    for (const [id, , old] of NAMES)
      await shop.storage.db
        .updateTable('products')
        .set({ search_text: `${old}\u001f\u001f` })
        .where('project_id', '=', 'shop')
        .where('id', '=', id)
        .execute();
    assert.deepEqual(await found(shop, 'Σ'), [1]);
    await refold(shop.storage.db);
    // Product answers and list pages are keyed by the products' versions; a migration runs before any server does.
    await shop.storage.db
      .updateTable('projects')
      .set((eb) => ({
        products_version: eb('data_version', '+', 1),
        product_lists_version: eb('data_version', '+', 1),
        data_version: eb('data_version', '+', 1),
      }))
      .execute();
    assert.deepEqual(await found(shop, 'Σ'), [1, 2]);
    assert.deepEqual(await found(shop, 'ΚΟΣ'), [1]);
    assert.deepEqual(await found(shop, 'strasse'), [4]);
  });
});
